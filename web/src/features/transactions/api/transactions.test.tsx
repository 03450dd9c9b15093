// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../../../../common/live';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { transactionsRoot, useStatementFollowsBalance } from './transactions';

/** The live channels a view listens to, with their handlers: the test plays the server. */
const listening = vi.hoisted(() => new Map<string, (m: unknown) => void>());
vi.mock('../../../lib/live', () => ({
  useLiveChannel: (channel: string, handler: (m: unknown) => void, enabled = true) => {
    if (enabled) listening.set(channel, handler);
  },
}));

const mount = testRoot();
beforeEach(() => {
  listening.clear();
  setLoggedIn(true, false);
});

function Statement() {
  useStatementFollowsBalance();
  return null;
}

function render() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  mount.render(
    <QueryClientProvider client={client}>
      <Statement />
    </QueryClientProvider>,
  );
  return invalidate;
}

const hear = (message: Envelope) => listening.get(message.ch)!(message);

describe('the statement on screen follows the money', () => {
  it('reloads when the balance moves', () => {
    const invalidate = render();
    hear({ ch: 'balance', t: 'update', m: { value: 500 } });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: transactionsRoot });
  });

  it("reloads when the user's own side of the market moves (a bid's fill moves no balance), not on others' trades", () => {
    const invalidate = render();
    const item = {
      itemType: 'COMMON_LETTER_A',
      marketQuantity: 3,
      marketQuantityDelta: true,
      bestSo: 120,
      bestSoDelta: true,
      bestBo: 100,
      bestBoDelta: false,
    };
    hear({ ch: 'market', t: 'marketItem', m: item });
    expect(invalidate).not.toHaveBeenCalled();
    hear({
      ch: 'market',
      t: 'marketItem',
      m: { ...item, userQuantity: 1, userQuantityDelta: true, userBuyOffer: null, userBuyOfferDelta: true },
    });
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
