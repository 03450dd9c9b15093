import { useQueryClient } from '@tanstack/react-query';
import type { Paid } from '../../../../../common/api/shared';
import { useAction } from '../../../hooks/useAction';
import { ApiError, newActionKey } from '../../../lib/api';
import { writeBalance } from '../lib/balance';
import { topUpShortfall } from './shortfall';

export interface PaidActionOptions<I, O> {
  /** Writes the rest of the answer into the feature's caches; the balance is already written. */
  onPaid?: (answer: O, input: I) => void | Promise<void>;
  /**
   * 409, the price moved since the user saw it: the feature shows the new price (its body) and nothing was charged.
   * Sending again at that price is the user's consent, and a new attempt with a new key.
   */
  onPriceChanged?: (body: unknown) => void;
}

/**
 * Every paid action of the web client (docs/ARCHITECTURE.md, "The wallet"). `run(input)` is one attempt: it takes a
 * new Idempotency-Key (lib/api.ts sends the attempt's retries under it), and then
 * - on success writes the answer's balance (`Paid`) into the cached profile and calls `onPaid`;
 * - on 402 opens the top-up popup with the shortfall;
 * - on 409 calls `onPriceChanged`;
 * and rejects with the ApiError on any refusal, for the caller's own words.
 */
export function usePaidAction<I, O extends Paid>(
  call: (input: I, idempotencyKey: string) => Promise<O>,
  options: PaidActionOptions<I, O> = {},
) {
  const client = useQueryClient();
  return useAction(async (input: I): Promise<O> => {
    let answer: O;
    try {
      answer = await call(input, newActionKey());
    } catch (err) {
      if (!topUpShortfall(err) && err instanceof ApiError && err.status === 409) options.onPriceChanged?.(err.body);
      throw err;
    }
    writeBalance(client, answer.balance);
    await options.onPaid?.(answer, input);
    return answer;
  });
}
