import { useCallback, useState } from 'react';
import { useLatest } from './useLatest';

/**
 * A call that changes something on the server: `run` resolves with its answer (or throws), `isPending` is true while
 * one runs. TanStack Query's `useMutation` would do the same, but a lazy page using it moves the mutation code out of
 * the wall's chunk into a chunk of its own, and the wall's first load grows by about 1 KB (bench/bundle/measure.ts).
 */
export function useAction<I, O>(fn: (input: I) => Promise<O>) {
  const latest = useLatest(fn);
  const [running, setRunning] = useState(0);
  const run = useCallback(
    async (input: I): Promise<O> => {
      setRunning((n) => n + 1);
      try {
        return await latest.current(input);
      } finally {
        setRunning((n) => n - 1);
      }
    },
    [latest],
  );
  return { run, isPending: running > 0 };
}
