// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../../../common/api/chat';
import type { Comment } from '../../../../../common/api/comments';
import type { Notification, NotificationPreview } from '../../../../../common/api/notifications';
import type { Picture } from '../../../../../common/api/pictures';
import type { Envelope } from '../../../../../common/live';
import { testRoot } from '../../../lib/test-root';
import type { WallPage } from '../../pictures/api/pictures';
import { removedPicturesKey } from '../api/moderation';
import { settle } from './test-helpers';
import { useModerationLive } from './useModerationLive';

/** The live channels followed, with their handlers: the test plays the server. */
const listening = vi.hoisted(() => new Map<string, (m: unknown) => void>());
vi.mock('../../../lib/live', () => ({
  useLiveChannel: (channel: string, handler: (m: unknown) => void, enabled = true) => {
    if (enabled) listening.set(channel, handler);
  },
}));

const mount = testRoot();
beforeEach(() => listening.clear());
// The hook loads its cache changes with the first event; loaded here, each event applies within a few ticks.
beforeAll(async () => {
  await import('./removal');
});

function Live() {
  useModerationLive();
  return null;
}

const comment = (id: number, replies: Comment[] = []): Comment =>
  ({ id, pictureId: 1, responseTo: null, authorId: 5, commentResponses: replies }) as unknown as Comment;
const reply = (id: number): Comment =>
  ({ id, pictureId: 1, responseTo: 10, authorId: 6, commentResponses: [] }) as unknown as Comment;
const message = (id: number): ChatMessage => ({
  id,
  senderId: 3,
  username: 'u',
  profilePicture: null,
  message: `m${id}`,
  time: '2026-01-01T00:00:00.000Z',
});
const picture = (id: number) => ({ id, authorId: 1 }) as Picture;
const notification = (id: number) =>
  ({ id, commentId: null, pictureId: null, username: 'x', b: { topic: 'IMAGE_COMMENT' } }) as unknown as Notification;

const WALL = ['pictures', 'wall', 'top', null, 0] as const;
const COMMENTS = ['comments', 'picture', 1] as const;
const CHAT = ['chat', 'messages'] as const;
const PREVIEW = ['notifications', 'preview'] as const;

function render(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData<InfiniteData<WallPage>>(WALL, {
    pages: [{ offset: 0, limit: 3, items: [picture(1), picture(2), picture(3)] }],
    pageParams: [{ offset: 0, limit: 3 }],
  });
  client.setQueryData(['pictures', 'one', 2], picture(2));
  client.setQueryData<Comment[]>(COMMENTS, [comment(10, [reply(11), reply(12)]), comment(20)]);
  client.setQueryData<ChatMessage[]>(CHAT, [message(1), message(2)]);
  client.setQueryData<NotificationPreview>(PREVIEW, {
    notifications: [{ ...notification(1), commentId: 11 }, { ...notification(2), pictureId: 2 }, notification(3)],
    unreadCount: 3,
  });
  mount.render(
    <QueryClientProvider client={client}>
      <Live />
    </QueryClientProvider>,
  );
  return client;
}

const hear = async (e: Envelope) => {
  act(() => listening.get(e.ch)!(e));
  await settle();
};

describe('removed content leaves every view', () => {
  it('takes a removed reply out of its comment, and its notification with it', async () => {
    const client = render();
    await hear({ ch: 'moderation', t: 'contentRemoved', m: { contentType: 'COMMENT', contentId: 11 } });
    const list = client.getQueryData<Comment[]>(COMMENTS)!;
    expect(list.map((c) => c.id)).toEqual([10, 20]);
    expect(list[0]!.commentResponses.map((r) => r.id)).toEqual([12]);
    expect(client.getQueryData<NotificationPreview>(PREVIEW)!.notifications.map((n) => n.id)).toEqual([2, 3]);
  });

  it('takes a removed top-level comment out with its replies', async () => {
    const client = render();
    await hear({ ch: 'moderation', t: 'contentRemoved', m: { contentType: 'COMMENT', contentId: 10 } });
    expect(client.getQueryData<Comment[]>(COMMENTS)!.map((c) => c.id)).toEqual([20]);
  });

  it('takes a removed chat message out of the room', async () => {
    const client = render();
    await hear({ ch: 'moderation', t: 'contentRemoved', m: { contentType: 'CHAT', contentId: 2 } });
    expect(client.getQueryData<ChatMessage[]>(CHAT)!.map((m) => m.id)).toEqual([1]);
  });

  it("takes a removed picture off the walls, marks its page removed, and the batch's next one starts right", async () => {
    const client = render();
    await hear({ ch: 'moderation', t: 'contentRemoved', m: { contentType: 'PICTURE', contentId: 2 } });
    const wall = client.getQueryData<InfiniteData<WallPage>>(WALL)!;
    expect(wall.pages[0]!.items.map((p) => p.id)).toEqual([1, 3]);
    expect(wall.pages[0]!.limit).toBe(2);
    expect(client.getQueryData(removedPicturesKey)).toEqual([2]);
    expect(client.getQueryData<NotificationPreview>(PREVIEW)!.notifications.map((n) => n.id)).toEqual([1, 3]);
  });

  it('reads the content again when an appeal restores it', async () => {
    const client = render();
    await hear({ ch: 'moderation', t: 'contentRemoved', m: { contentType: 'PICTURE', contentId: 2 } });
    await hear({ ch: 'moderation', t: 'contentRestored', m: { contentType: 'PICTURE', contentId: 2 } });
    expect(client.getQueryData(removedPicturesKey)).toEqual([]);
    expect(client.getQueryState(WALL)!.isInvalidated).toBe(true);
    await hear({ ch: 'moderation', t: 'contentRestored', m: { contentType: 'COMMENT', contentId: 11 } });
    expect(client.getQueryState(COMMENTS)!.isInvalidated).toBe(true);
    await hear({ ch: 'moderation', t: 'contentRestored', m: { contentType: 'CHAT', contentId: 2 } });
    expect(client.getQueryState(CHAT)!.isInvalidated).toBe(true);
  });
});
