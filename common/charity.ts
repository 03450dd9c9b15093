/**
 * The donation-link rules both sides use (SPEC §4 "Donation links", §5 "Charity link", DESIGN.md §8 clarifications).
 */

/** Some text, a dot and at least two letters, no spaces. */
export const CHARITY_LINK_PATTERN = /^\S+\.[A-Za-z]{2,}\S*$/;
export const CHARITY_LINK_MAX_LENGTH = 2048;
/** Charity names, categories and reasons an admin types. */
export const CHARITY_TEXT_MAX_LENGTH = 200;

/** SPEC §9: the charity error clears after 5 s and unlocks the input. */
export const CHARITY_ERROR_MS = 5000;

export const DONATION_STATUSES = ['APPROVED', 'REJECTED', 'PENDING'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];
/** The public list's filters offer only decided statuses (SPEC §4). */
export const PUBLIC_DONATION_STATUSES: readonly DonationStatus[] = ['APPROVED', 'REJECTED'];

export const isCharityLink = (link: string): boolean =>
  link.length <= CHARITY_LINK_MAX_LENGTH && CHARITY_LINK_PATTERN.test(link);

/** Not decided is Pending; decided and approved is Approved; decided and not approved is Rejected. */
export function donationStatus(link: { decided: boolean; approved: boolean }): DonationStatus {
  if (!link.decided) return 'PENDING';
  return link.approved ? 'APPROVED' : 'REJECTED';
}

/** A displayed link gets https:// when it has no scheme (SPEC §5). */
export const withScheme = (link: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`);

/** The card shows the link as its hostname; the link itself when it does not parse. */
export function hostnameOf(link: string): string {
  try {
    return new URL(withScheme(link)).hostname || link;
  } catch {
    return link;
  }
}

/**
 * How many links one user may have waiting for a decision at once (docs/decisions.md): a send beyond it answers 400
 * on `link` until an administrator decides some.
 */
export const MAX_PENDING_LINKS = 10;

/** Every donation list answers at most this many links per call, newest first (`?limit=`, `?beforeId=`). */
export const DONATION_PAGE = 200;
