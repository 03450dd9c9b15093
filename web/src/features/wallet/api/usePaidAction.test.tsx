// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../../../common/api/users';
import { ApiError } from '../../../lib/api';
import { testRoot } from '../../../lib/test-root';
import { profileQuery } from '../../users/api/profile';
import { useLiveBalance } from './balance';
import { usePaidAction, type PaidActionOptions } from './usePaidAction';

/** The live channels the wallet listens to, with their handlers: the test plays the server. */
const listening = vi.hoisted(() => new Map<string, (m: unknown) => void>());
vi.mock('../../../lib/live', () => ({
  useLiveChannel: (channel: string, handler: (m: unknown) => void, enabled = true) => {
    if (enabled) listening.set(channel, handler);
  },
}));

/** The popups opened. */
const opened = vi.hoisted(() => [] as unknown[]);
vi.mock('../../../lib/popups', () => ({ openPopup: (spec: unknown) => opened.push(spec) }));

const mount = testRoot();
beforeEach(() => {
  listening.clear();
  opened.length = 0;
});

type Answer = { balance: number; thing: string };
type Call = (input: string, key: string) => Promise<Answer>;

/** Mounts a component using the hook, and hands back its `run` and the query client it writes to. */
function mountAction(call: Call, options?: PaidActionOptions<string, Answer>) {
  const client = new QueryClient();
  client.setQueryData(profileQuery.queryKey, { balance: 1_000, keyCount: 0 } as Profile);
  let action!: ReturnType<typeof usePaidAction<string, Answer>>;
  function Probe() {
    action = usePaidAction(call, options);
    useLiveBalance(true);
    return null;
  }
  mount.render(
    <QueryClientProvider client={client}>
      <Probe />
    </QueryClientProvider>,
  );
  /** One attempt, inside act() (it sets the pending state); settles with the action's answer or its refusal. */
  const run = async (input: string): Promise<Answer> => {
    let settled!: Promise<Answer>;
    await act(async () => {
      settled = action.run(input);
      await settled.catch(() => {});
    });
    return settled;
  };
  return { run, balance: () => client.getQueryData(profileQuery.queryKey)?.balance };
}

describe('a paid action', () => {
  it('takes a new Idempotency-Key per attempt and writes the balance its answer carries', async () => {
    const keys: string[] = [];
    const onPaid = vi.fn();
    const { run, balance } = mountAction(
      async (_input, key) => {
        keys.push(key);
        return { balance: 750, thing: 'done' };
      },
      { onPaid },
    );
    await run('a');
    await run('a');
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    expect(balance()).toBe(750);
    expect(onPaid).toHaveBeenCalledWith({ balance: 750, thing: 'done' }, 'a');
  });

  it('on a 402 opens the top-up popup with the shortfall, and rejects', async () => {
    const { run, balance } = mountAction(async () => {
      throw new ApiError(402, { missing: 250 });
    });
    await expect(run('a')).rejects.toBeInstanceOf(ApiError);
    expect(opened).toEqual([{ kind: 'addMoney', missing: 250 }]);
    expect(balance()).toBe(1_000);
  });

  it('on a 409 hands the new price to the feature, and rejects', async () => {
    const onPriceChanged = vi.fn();
    const { run } = mountAction(
      async () => {
        throw new ApiError(409, { newPrice: 7 });
      },
      { onPriceChanged },
    );
    await expect(run('a')).rejects.toBeInstanceOf(ApiError);
    expect(onPriceChanged).toHaveBeenCalledWith({ newPrice: 7 });
    expect(opened).toEqual([]);
  });
});

describe('the live balance', () => {
  it('is written into the cached profile', () => {
    const { balance } = mountAction(async () => ({ balance: 0, thing: '' }));
    listening.get('balance')!({ ch: 'balance', t: 'update', m: { value: 42 } });
    expect(balance()).toBe(42);
  });
});
