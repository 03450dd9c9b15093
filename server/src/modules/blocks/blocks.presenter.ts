import type { BlockedUser } from '../../../../common/api/blocks';
import { isoTime } from '../../../../common/time';
import type { BlockedRow } from './blocks.repository';

/** One blocked user as the blocker's list shows them (docs/product.md#blocks). */
export const presentBlocked = (r: BlockedRow): BlockedUser => ({
  userId: Number(r.blocked_id),
  username: r.username,
  blockedOn: isoTime(r.created_at),
});
