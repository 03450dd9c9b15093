/**
 * The donation-link rules both sides use (docs/product.md#charity).
 */

/**
 * A web link: http:// or https:// (any case) or no scheme at all (https:// is then meant), then some text, a dot and
 * at least two letters, no spaces. Any other scheme (javascript:, data:, mailto:, ftp:…) is refused; `host:8080` is a
 * port, not a scheme. The schema's pattern (common/api/charity.ts), so it cannot use flags.
 */
export const CHARITY_LINK_PATTERN =
  /^(?:[Hh][Tt][Tt][Pp][Ss]?:\/\/|(?![A-Za-z][A-Za-z0-9+.-]*:(?![0-9])))\S+\.[A-Za-z]{2,}\S*$/;
export const CHARITY_LINK_MAX_LENGTH = 2048;

/** What a user is told of a link that cannot be sent (the popup and the server's 400 on `link` say the same). */
export const CHARITY_LINK_TEXT = {
  empty: 'Enter a donation link.',
  tooLong: `A link is at most ${CHARITY_LINK_MAX_LENGTH} characters.`,
  notWeb: 'Only web links can be sent: one that starts with https://, http:// or the site’s name.',
  shape: 'Enter a link like example.org/donation, without spaces.',
  taken: 'This donation link was already sent. Each donation is credited once.',
} as const;
/** Charity names, categories and reasons an admin types. */
export const CHARITY_TEXT_MAX_LENGTH = 200;

/** docs/product.md#charity: the charity error clears after 5 s and unlocks the input. */
export const CHARITY_ERROR_MS = 5000;

export const DONATION_STATUSES = ['APPROVED', 'REJECTED', 'PENDING'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];
/** The public list's filters offer only decided statuses (docs/product.md#charity). */
export const PUBLIC_DONATION_STATUSES: readonly DonationStatus[] = ['APPROVED', 'REJECTED'];

/** The link as a URL when it is a web link (http or https, with a host that has a dot), else undefined. */
function webUrl(link: string): URL | undefined {
  if (!CHARITY_LINK_PATTERN.test(link)) return undefined;
  let url: URL;
  try {
    url = new URL(withScheme(link));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.hostname.includes('.') ? url : undefined;
}

/** Why a typed link cannot be sent, in words for people; undefined when it can. */
export function charityLinkProblem(link: string): string | undefined {
  if (link === '') return CHARITY_LINK_TEXT.empty;
  if (link.length > CHARITY_LINK_MAX_LENGTH) return CHARITY_LINK_TEXT.tooLong;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:(?![0-9])/.test(link) && !/^https?:\/\//i.test(link)) return CHARITY_LINK_TEXT.notWeb;
  return webUrl(link) ? undefined : CHARITY_LINK_TEXT.shape;
}

export const isCharityLink = (link: string): boolean => charityLinkProblem(link) === undefined;

/**
 * Where a card's link may point: the link with https:// when it has no scheme, only when it is a web link. Links
 * stored before the rule (a `javascript:` one) get no href at all.
 */
export function charityLinkHref(link: string): string | undefined {
  return link.length <= CHARITY_LINK_MAX_LENGTH && webUrl(link) ? withScheme(link) : undefined;
}

/**
 * What makes two donation links the same donation (docs/decisions.md, "One donation, credited once"): the link as a
 * URL with the scheme dropped (http and https are one page), the host without `www.` or a trailing dot, no default
 * port, no user name, no fragment, the path without repeated or trailing slashes, percent-escapes of unreserved
 * characters decoded and the others in capitals, the query's parameters sorted without empty ones and `utm_*`
 * trackers. Undefined for a link that is not a web link. Migration 0011's `charity_link_key_v1` renders the same rule
 * in SQL for the links stored before it (a test holds the two together).
 */
export function charityLinkKey(link: string): string | undefined {
  const url = webUrl(link.trim());
  if (!url) return undefined;
  const host = url.hostname.replace(/\.$/, '').replace(/^www\./, '');
  const port = url.port === '' || url.port === '80' || url.port === '443' ? '' : `:${url.port}`;
  const path = escapes(url.pathname)
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
  const query = url.search
    .slice(1)
    .split('&')
    .filter((p) => p !== '' && !/^utm_/i.test(p))
    .map(escapes)
    .sort()
    .join('&');
  return `${host}${port}${path}${query ? `?${query}` : ''}`;
}

/** RFC 3986's normal form of percent-escapes: unreserved characters as themselves, the rest in capitals. */
function escapes(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

/** Not decided is Pending; decided and approved is Approved; decided and not approved is Rejected. */
export function donationStatus(link: { decided: boolean; approved: boolean }): DonationStatus {
  if (!link.decided) return 'PENDING';
  return link.approved ? 'APPROVED' : 'REJECTED';
}

/** A displayed link gets https:// when it has no scheme (docs/product.md#charity). */
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
