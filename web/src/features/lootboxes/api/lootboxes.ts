import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { KeyCountAnswer, LootBoxCountAnswer, LootboxResult } from '../../../../../common/api/lootboxes';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { itemDetailsQuery } from '../../items/api/details';
import { profileQuery } from '../../users/api/profile';
import { usePaidAction } from '../../wallet/api/usePaidAction';
import { fairnessRoot } from './fairness';

type Counter = 'keyCount' | 'lootBoxCount';

/** The live channels move the counters too; answers that carry one set it, so it is right while the socket is down. */
function setCounters(client: QueryClient, counters: Partial<Record<Counter, number>>): void {
  client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, ...counters } : old));
}

export interface KeyPurchase {
  keyCount: number;
  /** The balance the user saw (the server never trusts it). */
  balance: number;
}

export const buyKeys = (body: KeyPurchase, idempotencyKey: string): Promise<KeyCountAnswer> =>
  api<KeyCountAnswer>('/api/purchase/key', { body, idempotencyKey });

/** A paid action (features/wallet/); the key count it answers is written too. */
export function useBuyKeys() {
  const client = useQueryClient();
  return usePaidAction(buyKeys, { onPaid: (answer) => setCounters(client, { keyCount: answer.keyCount }) });
}

export const getLootbox = (actionKey: string): Promise<LootBoxCountAnswer> =>
  api<LootBoxCountAnswer>('/api/purchase/lootbox', { body: {}, idempotencyKey: actionKey });

export function useGetLootbox() {
  const client = useQueryClient();
  return useAction(async (actionKey: string) => {
    const answer = await getLootbox(actionKey);
    setCounters(client, { lootBoxCount: answer.lootBoxCount });
    return answer;
  });
}

export const openLootbox = (actionKey: string): Promise<LootboxResult> =>
  api<LootboxResult>('/api/open/lootbox', { body: {}, idempotencyKey: actionKey });

/** Opening spends one box and one key and mints five items: the counters, the items and the proof all move. */
export function useOpenLootbox() {
  const client = useQueryClient();
  return useAction(async (actionKey: string) => {
    const result = await openLootbox(actionKey);
    // The counters after this opening; a live update may have set them already, to the same values.
    setCounters(client, { keyCount: result.keyCount, lootBoxCount: result.lootBoxCount });
    void client.invalidateQueries({ queryKey: itemDetailsQuery.queryKey });
    void client.invalidateQueries({ queryKey: fairnessRoot });
    return result;
  });
}

/** Skipping the reveal changes nothing on the server; the call is kept for its record. */
export const skipLootboxes = (): Promise<unknown> => api('/api/open/lootbox/skip', { body: {} });
