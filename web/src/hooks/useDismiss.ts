import { useEffect, type RefObject } from 'react';
import { useLatest } from './useLatest';

/**
 * While `open`, a press outside `root` or the Escape key calls `close` (dropdowns, the expanded price tag). Popups
 * have their own handling, with focus trapping.
 */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: (via: 'outside' | 'escape') => void,
): void {
  // The latest callback, without re-adding the listeners on every render.
  const onClose = useLatest(close);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) onClose.current('outside');
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose.current('escape');
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open, root, onClose]);
}
