import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref that holds the latest `value` (a callback, usually), for listeners and effects that must not be re-added on
 * every render. It is written after each render commits, never during the render (react-hooks' refs rule), and before
 * any effect or event can read it.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
