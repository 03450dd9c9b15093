import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates the page the server painted (docs/decisions.md "Issue 28: the wall painted by the
 * server"), true in every render after, and always true in a page React rendered itself: what the painted page does
 * not hold is drawn from the render after hydration, so hydration finds exactly what was painted.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
