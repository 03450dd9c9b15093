// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockedUsers } from '../../../../../common/api/blocks';
import type { ChatMessage } from '../../../../../common/api/chat';
import type { Envelope } from '../../../../../common/live';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { blockedQuery } from '../../blocks/api/blocked-ids';
import { useChatLive } from './cache';

/** The live channels followed, with their handlers: the test plays the server. */
const listening = vi.hoisted(() => new Map<string, (m: unknown) => void>());
vi.mock('../../../lib/live', () => ({
  useLiveChannel: (channel: string, handler: (m: unknown) => void, enabled = true) => {
    if (enabled) listening.set(channel, handler);
  },
  live: { onReconnect: () => () => {} },
}));

const mount = testRoot();
afterEach(() => vi.unstubAllGlobals());
beforeEach(() => {
  listening.clear();
  setLoggedIn(true, false);
});

function Room() {
  useChatLive();
  return null;
}

const message = (id: number, senderId: number): ChatMessage => ({
  id,
  senderId,
  username: `u${senderId}`,
  profilePicture: null,
  message: 'hi',
  time: '2026-01-01T00:00:00.000Z',
});

describe('the chat with a blocked user', () => {
  it("never shows a blocked sender's live message; others' still arrive", () => {
    const blocked: BlockedUsers = [{ userId: 9, username: 'u9', blockedOn: '2026-01-01T00:00:00.000Z' }];
    // The room reads the blocked list itself (GET /api/user/blocks); this one answers it.
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(blocked), { status: 200 }));
    const client = new QueryClient();
    client.setQueryData<ChatMessage[]>(['chat', 'messages'], []);
    client.setQueryData<BlockedUsers>(blockedQuery.queryKey, blocked);
    mount.render(
      <QueryClientProvider client={client}>
        <Room />
      </QueryClientProvider>,
    );
    const hear = (e: Envelope) => act(() => listening.get(e.ch)!(e));
    hear({ ch: 'chat', t: 'textMessage', m: message(1, 9) });
    hear({ ch: 'chat', t: 'textMessage', m: message(2, 8) });
    expect(client.getQueryData<ChatMessage[]>(['chat', 'messages'])!.map((m) => m.id)).toEqual([2]);
  });
});
