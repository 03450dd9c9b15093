import { fieldError, forbidden } from '../../http/errors';

/*
 * Every access check of the market (docs/product.md#market). The book is public and its offers are
 * there to be taken, so what is refused is taking one's own offer and seeing graphs one has not paid for.
 * market.policy.test.ts proves both change nothing.
 */

export const POLICY_TEXT = {
  ownOffer: 'That is your own offer.',
  graphsLocked: 'Unlock the graphs first.',
} as const;

/** buy-from-user and sell-to-user act on another user's offer, never one's own: 400 on userId. */
export function refuseOwnOffer(userId: number, counterpartyId: number): void {
  if (counterpartyId === userId) throw fieldError('userId', POLICY_TEXT.ownOffer);
}

/** Trade data is for users who paid for the graphs: 403 otherwise (the client shows the locked placeholder). */
export function authorizeGraphs(unlocked: boolean): void {
  if (!unlocked) throw forbidden(POLICY_TEXT.graphsLocked);
}
