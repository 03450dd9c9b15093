import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { fieldError, notFound } from '../../http/errors';
import * as blocks from './blocks.repository';

/*
 * Blocking a user (docs/product.md#blocks): the blocker gets none of the blocked user's chat messages, comments,
 * replies or notifications, in lists and live, and the blocked user cannot reply to or react on the blocker's
 * comments. The lists leave the blocked out in their own query (`NOT EXISTS` on user_blocks' key); the live
 * audiences and the refusals ask here, one indexed query each.
 */

export const TEXT = {
  self: 'You cannot block yourself.',
  noUser: 'No such user.',
  blockedYou: 'This user has blocked you.',
} as const;

/** Blocks a user; idempotent per pair. 400 for oneself, 404 for nobody. */
export async function blockUser(ctx: AppContext, blockerId: number, blockedId: number): Promise<void> {
  if (blockedId === blockerId) throw fieldError('userId', TEXT.self);
  if (!(await blocks.userExists(ctx.db, blockedId))) throw notFound(TEXT.noUser);
  await blocks.insertBlock(ctx.db, blockerId, blockedId, ctx.now());
}

/** Undoes a block; nothing to undo is no error. */
export async function unblockUser(ctx: AppContext, blockerId: number, blockedId: number): Promise<void> {
  await blocks.deleteBlock(ctx.db, blockerId, blockedId);
}

export function blockedUsers(ctx: AppContext, blockerId: number): Promise<blocks.BlockedRow[]> {
  return blocks.blockedBy(ctx.db, blockerId);
}

/** Whether `blockerId` blocked `blockedId`. */
export function hasBlocked(exec: Executor, blockerId: number, blockedId: number): Promise<boolean> {
  return blocks.isBlocked(exec, blockerId, blockedId);
}

/** Who blocked each of these users: blocked id → its blockers (users nobody blocked are absent). */
export async function blockersOf(exec: Executor, blockedIds: Iterable<number>): Promise<Map<number, Set<number>>> {
  const found = new Map<number, Set<number>>();
  for (const row of await blocks.blockersOf(exec, [...new Set(blockedIds)])) {
    const blocked = Number(row.blocked_id);
    if (!found.has(blocked)) found.set(blocked, new Set());
    found.get(blocked)!.add(Number(row.blocker_id));
  }
  return found;
}
