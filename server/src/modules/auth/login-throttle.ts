import { normalizeIP } from '@fastify/rate-limit';
import { tooManyRequests } from '../../http/errors';
import type { CounterStore } from '../limits/limits.service';

export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;
/** An address the account signed in from stays its "usual address" this long after the last sign-in there. */
export const KNOWN_ADDRESS_MS = 90 * 86_400_000;

/** One password attempt, counted before the password is checked. */
export interface Attempt {
  account: string;
  address: string;
  known: boolean;
}

/**
 * Password guesses per account, counted in the shared counters (Redis or PostgreSQL), so every instance sees the
 * same counts:
 * - per account and address: `limit` attempts per 15 minutes from any one address;
 * - per account, from addresses the account has never signed in from: `limit` attempts per 15 minutes in total, so
 *   guessing from many addresses gets no further than from one.
 * The owner's usual addresses (where they signed up or signed in, in the last 90 days) are outside the second
 * count, so a stranger's failures can throttle strangers but never lock the owner out at home.
 *
 * Attempts are counted before the password is checked, so a burst of concurrent guesses cannot all pass a limit
 * that none of them has reached yet; a success takes its attempt back.
 */
export class LoginThrottle {
  constructor(
    private readonly counters: CounterStore,
    private readonly limit: number,
  ) {}

  /** Counts the attempt; throws 429, saying how long to wait, when it is over a limit. */
  async begin(username: string, ip: string): Promise<Attempt> {
    const who = { account: username.toLowerCase(), address: normalizeIP(ip) };
    const attempt: Attempt = { ...who, known: (await this.counters.peek(knownKey(who))).count > 0 };
    const here = await this.counters.add(addressKey(attempt), FAILED_LOGIN_WINDOW_MS);
    const anywhere = attempt.known ? undefined : await this.counters.add(accountKey(attempt), FAILED_LOGIN_WINDOW_MS);
    const over = [here, anywhere].filter((c) => c !== undefined && c.count > this.limit);
    if (over.length > 0) throw tooManyRequests(Math.max(...over.map((c) => c!.resetInMs)));
    return attempt;
  }

  /** The password was right: forget this address's failures, give back the attempt, remember the address. */
  async succeeded(attempt: Attempt): Promise<void> {
    await this.counters.clear(addressKey(attempt));
    if (!attempt.known) await this.counters.add(accountKey(attempt), FAILED_LOGIN_WINDOW_MS, -1);
    await this.counters.mark(knownKey(attempt), KNOWN_ADDRESS_MS);
  }

  /** A new account's first address is its usual one. */
  async remember(username: string, ip: string): Promise<void> {
    const key = knownKey({ account: username.toLowerCase(), address: normalizeIP(ip) });
    await this.counters.mark(key, KNOWN_ADDRESS_MS);
  }
}

type Who = Pick<Attempt, 'account' | 'address'>;
const addressKey = (a: Who) => `login:fail:${a.account}@${a.address}`;
const accountKey = (a: Who) => `login:fail:${a.account}`;
const knownKey = (a: Who) => `login:known:${a.account}@${a.address}`;
