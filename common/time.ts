/** Relative age of a timestamp (SPEC §4 "Input and display behaviour"): y, mo, d, h, m, optionally with 'ago'. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const UNITS: [number, string][] = [
  [YEAR, 'y'],
  [MONTH, 'mo'],
  [DAY, 'd'],
  [HOUR, 'h'],
  [MINUTE, 'm'],
];

/** How often relative times on screen are recomputed. */
export const RELATIVE_TIME_REFRESH_MS = 10_000;

export function relativeTime(at: Date | string | number, now: Date | number = Date.now(), ago = false): string {
  const elapsed = Math.max(0, Number(now) - new Date(at).getTime());
  const unit = UNITS.find(([size]) => elapsed >= size);
  if (!unit) return 'now';
  const text = `${Math.floor(elapsed / unit[0])}${unit[1]}`;
  return ago ? `${text} ago` : text;
}

/** ISO 8601 of a moment the database or a client handed over as a Date, a string or epoch milliseconds. */
export const isoTime = (at: Date | string | number): string => new Date(at).toISOString();
