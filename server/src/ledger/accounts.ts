import { GOODWILL_TYPES, type GoodWillType } from '../../../common/constants';

/**
 * Account codes. A code names an account for good, so postings can refer to it without a lookup.
 * `user:*` accounts are guarded (balance kept, never negative); all others are system accounts.
 */
export const account = {
  available: (userId: number) => `user:${userId}:available`,
  escrow: (userId: number) => `user:${userId}:escrow`,
  revenue: 'platform:revenue',
  marketFees: 'platform:market-fees',
  goodwillPayable: (cause: GoodWillType) => `goodwill:${cause}:payable`,
  goodwillForwarded: (cause: GoodWillType) => `goodwill:${cause}:forwarded`,
  externalCard: 'external:card',
  externalCharity: 'external:charity',
} as const;

export const isGuarded = (code: string) => code.startsWith('user:');

/** The user whose available money an account code holds, if it is one. */
export function availableOwner(code: string): number | undefined {
  const m = /^user:(\d+):available$/.exec(code);
  return m ? Number(m[1]) : undefined;
}

export interface AccountRow {
  code: string;
  kind: string;
  userId: number | null;
  cause: string | null;
  guarded: boolean;
}

export function systemAccounts(): AccountRow[] {
  const sys = (code: string, kind: string, cause: string | null = null): AccountRow => ({
    code,
    kind,
    userId: null,
    cause,
    guarded: false,
  });
  return [
    sys(account.revenue, 'revenue'),
    sys(account.marketFees, 'market_fees'),
    sys(account.externalCard, 'external_card'),
    sys(account.externalCharity, 'external_charity'),
    ...GOODWILL_TYPES.flatMap((c) => [
      sys(account.goodwillPayable(c), 'goodwill_payable', c),
      sys(account.goodwillForwarded(c), 'goodwill_forwarded', c),
    ]),
  ];
}

export function userAccounts(userId: number): AccountRow[] {
  return [
    { code: account.available(userId), kind: 'available', userId, cause: null, guarded: true },
    { code: account.escrow(userId), kind: 'escrow', userId, cause: null, guarded: true },
  ];
}
