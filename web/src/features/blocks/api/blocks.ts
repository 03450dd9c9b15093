import { useQueryClient } from '@tanstack/react-query';
import type { BlockBody, BlockedUsers } from '../../../../../common/api/blocks';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { hideUser } from '../lib/hide';
import { blockedQuery } from './blocked-ids';

/* Blocking and unblocking (docs/product.md#blocks). */

/** POST /api/user/blocks. */
export const block = (body: BlockBody): Promise<unknown> => api<unknown>('/api/user/blocks', { body });

/** DELETE /api/user/blocks/{userId}. */
export const unblock = (userId: number): Promise<unknown> =>
  api<unknown>(`/api/user/blocks/${userId}`, { method: 'DELETE' });

/** Blocks a user, then hides what of theirs is shown and reads the blocked list again. */
export function useBlock() {
  const client = useQueryClient();
  return useAction(async (user: { userId: number; username: string }) => {
    await block({ userId: user.userId });
    client.setQueryData<BlockedUsers>(blockedQuery.queryKey, (old = []) =>
      old.some((b) => b.userId === user.userId)
        ? old
        : [...old, { userId: user.userId, username: user.username, blockedOn: new Date().toISOString() }],
    );
    hideUser(client, user);
    void client.invalidateQueries({ queryKey: blockedQuery.queryKey });
  });
}

/** Unblocks, then reads again what their content may now appear in. */
export function useUnblock() {
  const client = useQueryClient();
  return useAction(async (userId: number) => {
    await unblock(userId);
    client.setQueryData<BlockedUsers>(blockedQuery.queryKey, (old) => old?.filter((b) => b.userId !== userId));
    void client.invalidateQueries({ queryKey: blockedQuery.queryKey });
    void client.invalidateQueries({ queryKey: ['comments'] });
    void client.invalidateQueries({ queryKey: ['chat', 'messages'] });
    void client.invalidateQueries({ queryKey: ['notifications'] });
  });
}
