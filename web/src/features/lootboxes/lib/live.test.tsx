// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../../../common/api/users';
import type { Envelope } from '../../../../../common/live';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { profileQuery } from '../../users/api/profile';
import { useLootboxCountersLive } from './live';

/** The live channels followed, with their handlers: the test plays the server. */
const listening = vi.hoisted(() => new Map<string, (m: unknown) => void>());
vi.mock('../../../lib/live', () => ({
  useLiveChannel: (channel: string, handler: (m: unknown) => void, enabled = true) => {
    if (enabled) listening.set(channel, handler);
  },
}));

const mount = testRoot();
beforeEach(() => listening.clear());

function Counters() {
  useLootboxCountersLive();
  return null;
}

function render(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(profileQuery.queryKey, { id: 7, balance: 100, keyCount: 1, lootBoxCount: 3 } as Profile);
  mount.render(
    <QueryClientProvider client={client}>
      <Counters />
    </QueryClientProvider>,
  );
  return client;
}

const hear = (message: Envelope) => act(() => listening.get(message.ch)!(message));

describe('the lootboxes follow their own counters', () => {
  it("writes a signed-in user's key and box counts into the profile", () => {
    setLoggedIn(true, false);
    const client = render();
    hear({ ch: 'keyCount', t: 'update', m: { value: 5 } });
    hear({ ch: 'lootBoxCount', t: 'update', m: { value: 2 } });
    expect(client.getQueryData(profileQuery.queryKey)).toMatchObject({ balance: 100, keyCount: 5, lootBoxCount: 2 });
    expect([...listening.keys()]).not.toContain('balance');
  });

  it('follows nothing for a visitor', () => {
    setLoggedIn(false, false);
    render();
    expect(listening.size).toBe(0);
  });
});
