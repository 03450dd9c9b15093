/**
 * How the app shows time: one relative format in words for an age ('just now', '5 minutes ago', '2 days ago'),
 * and one absolute format for a moment ('May 1, 2026, 12:00 PM'). Every screen uses these two (docs/decisions.md,
 * "One time format"), so a chat line and a comment read their age the same way.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const UNITS: [number, string][] = [
  [YEAR, 'year'],
  [MONTH, 'month'],
  [DAY, 'day'],
  [HOUR, 'hour'],
  [MINUTE, 'minute'],
];

/** How often relative times on screen are recomputed. */
export const RELATIVE_TIME_REFRESH_MS = 10_000;

/** The age of a moment in words: 'just now' under a minute, then the largest whole unit, '3 hours ago'. */
export function relativeTime(at: Date | string | number, now: Date | number = Date.now()): string {
  const elapsed = Math.max(0, Number(now) - new Date(at).getTime());
  const unit = UNITS.find(([size]) => elapsed >= size);
  if (!unit) return 'just now';
  const n = Math.floor(elapsed / unit[0]);
  return `${n} ${unit[1]}${n === 1 ? '' : 's'} ago`;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A moment as a reader's date and time, in their time zone: 'May 1, 2026, 12:00 PM'. */
export const formatDateTime = (at: Date | string | number): string => dateTime.format(new Date(at));

/** ISO 8601 of a moment the database or a client handed over as a Date, a string or epoch milliseconds. */
export const isoTime = (at: Date | string | number): string => new Date(at).toISOString();
