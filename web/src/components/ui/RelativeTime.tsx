import { useSyncExternalStore } from 'react';
import { RELATIVE_TIME_REFRESH_MS, relativeTime } from '../../../../common/time';

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

/** The current time, refreshed every 10 s (SPEC §9 "Timings"). */
export const useNow = (): number => useSyncExternalStore(subscribe, () => now);

/** '5m', '3h', '2d ago': the age of a timestamp, kept current. */
export function RelativeTime({ at, ago = false }: { at: string | number | Date; ago?: boolean }) {
  const current = useNow();
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()}>
      {relativeTime(date, Math.max(current, Date.now() - RELATIVE_TIME_REFRESH_MS), ago)}
    </time>
  );
}
