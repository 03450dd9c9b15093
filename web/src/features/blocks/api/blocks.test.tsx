// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockedUsers } from '../../../../../common/api/blocks';
import type { ChatMessage } from '../../../../../common/api/chat';
import type { Comment } from '../../../../../common/api/comments';
import type { Notification, NotificationPreview } from '../../../../../common/api/notifications';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { blockedQuery, isBlocked } from './blocked-ids';
import { useBlock, useUnblock } from './blocks';

const mount = testRoot();
beforeEach(() => setLoggedIn(true, false));
afterEach(() => vi.unstubAllGlobals());

const comment = (id: number, authorId: number, replies: Comment[] = []): Comment =>
  ({ id, pictureId: 1, responseTo: null, authorId, commentResponses: replies }) as unknown as Comment;
const message = (id: number, senderId: number) => ({ id, senderId }) as ChatMessage;
const notification = (id: number, actorId: number, username: string) => ({ id, actorId, username }) as Notification;

function render() {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(init.body as string) : undefined });
    return new Response(url === '/api/user/blocks' && init.method === 'GET' ? '[]' : '{}', { status: 200 });
  });
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData<Comment[]>(
    ['comments', 'picture', 1],
    [comment(1, 7, [comment(2, 8), comment(3, 9)]), comment(4, 9)],
  );
  client.setQueryData<ChatMessage[]>(['chat', 'messages'], [message(1, 9), message(2, 8)]);
  client.setQueryData<NotificationPreview>(['notifications', 'preview'], {
    // The blocked user's older notification names them as they were called then: the id decides, not the name.
    notifications: [notification(1, 9, 'mallory'), notification(2, 8, 'bob'), notification(3, 9, 'mal')],
    unreadCount: 3,
  });
  let actions!: { block: ReturnType<typeof useBlock>; unblock: ReturnType<typeof useUnblock> };
  function Actions() {
    actions = { block: useBlock(), unblock: useUnblock() };
    return null;
  }
  mount.render(
    <QueryClientProvider client={client}>
      <Actions />
    </QueryClientProvider>,
  );
  return { client, calls, actions: () => actions };
}

describe('blocking a user', () => {
  it('hides their comments, replies, chat messages and notifications at once, and keeps them in the blocked ids', async () => {
    const { client, calls, actions } = render();
    await act(() => actions().block.run({ userId: 9, username: 'mallory' }));
    expect(calls[0]).toEqual({ url: '/api/user/blocks', method: 'POST', body: { userId: 9 } });
    const comments = client.getQueryData<Comment[]>(['comments', 'picture', 1])!;
    expect(comments.map((c) => c.id)).toEqual([1]);
    expect(comments[0]!.commentResponses.map((r) => r.id)).toEqual([2]);
    expect(client.getQueryData<ChatMessage[]>(['chat', 'messages'])!.map((m) => m.id)).toEqual([2]);
    expect(
      client.getQueryData<NotificationPreview>(['notifications', 'preview'])!.notifications.map((n) => n.username),
    ).toEqual(['bob']);
    expect(isBlocked(client, 9)).toBe(true);
    expect(isBlocked(client, 8)).toBe(false);
  });

  it('unblocks with DELETE and forgets the id', async () => {
    const { client, calls, actions } = render();
    client.setQueryData<BlockedUsers>(blockedQuery.queryKey, [
      { userId: 9, username: 'mallory', blockedOn: '2026-01-01T00:00:00.000Z' },
    ]);
    await act(() => actions().unblock.run(9));
    expect(calls[0]).toMatchObject({ url: '/api/user/blocks/9', method: 'DELETE' });
    expect(isBlocked(client, 9)).toBe(false);
  });
});
