import type { PushKey, PushPreferences } from '../../../../common/api/push';
import { PUSH_TYPES, type PushType } from '../../../../common/push';

/** What leaves the server of push (docs/product.md#push). */

export const presentKey = (publicKey: string): PushKey => ({ publicKey });

/** Every switch, on unless its type is among the muted. */
export function presentPreferences(muted: readonly PushType[]): PushPreferences {
  const off = new Set(muted);
  return Object.fromEntries(PUSH_TYPES.map((type) => [type, !off.has(type)])) as PushPreferences;
}
