/*
 * Suspension (docs/product.md#suspension): a suspended user signs in, signs out and reads, and is refused every call
 * that spends, writes, trades or submits a charity link until the suspension ends, by itself, at its end date.
 */

/** A user's suspension as stored: `until` the end (null: none, unless for good), `forGood` for good. */
export interface SuspensionFacts {
  suspendedUntil: Date | null;
  suspendedForGood: boolean;
}

/** Whether the user is suspended at `now`: for good, or until a moment still ahead. */
export function isSuspended(s: SuspensionFacts, now: Date): boolean {
  return s.suspendedForGood || (s.suspendedUntil !== null && s.suspendedUntil.getTime() > now.getTime());
}

/** The end date in words: 2026-12-03 12:00 UTC. */
export function suspensionEndText(until: Date): string {
  return `${until.toISOString().slice(0, 10)} ${until.toISOString().slice(11, 16)} UTC`;
}

/** What a refused call says: the end date in words, or for good. */
export function suspensionMessage(until: Date | null): string {
  return until === null
    ? 'Your account is suspended for good.'
    : `Your account is suspended until ${suspensionEndText(until)}.`;
}
