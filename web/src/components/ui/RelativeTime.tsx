import { useSyncExternalStore } from 'react';
import { formatDateTime, RELATIVE_TIME_REFRESH_MS, relativeTime } from '../../../../common/time';

// One timer for every relative time on the page, running only while one is shown.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((l) => l());
  }, RELATIVE_TIME_REFRESH_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, refreshed every 10 s (docs/product.md#limits). */
export const useNow = (): number =>
  useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );

/** '5 minutes ago', '2 days ago': the age of a timestamp in the app's one format, kept current; the moment on hover. */
export function RelativeTime({ at }: { at: string | number | Date }) {
  const current = useNow();
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(date)}>
      {
        // The shared time may be stale before the first tick of its timer: a time shown now is at most one refresh
        // old. Reading the clock here is meant; the value only ever moves forward.
        // eslint-disable-next-line react-hooks/purity
        relativeTime(date, Math.max(current, Date.now() - RELATIVE_TIME_REFRESH_MS))
      }
    </time>
  );
}
