import { useEffect, useState } from 'react';
import { useLatest } from '../../../hooks/useLatest';

/** The current time, ticking every `ms` (the fire badge recomputes its score every second, docs/product.md#funding). */
export function useNow(ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** True on screens whose main pointer is a finger: the card arrows are then always shown. */
export function useTouchScreen(): boolean {
  const [touch] = useState(() => typeof matchMedia === 'function' && matchMedia('(hover: none)').matches);
  return touch;
}

/**
 * Horizontal swipes on `el` (the wall, the detail image). Ignored when `blocked()` says so, e.g. while a popup is
 * open (docs/product.md#wall), and when the move is more vertical than horizontal, so scrolling never turns into a swipe.
 */
export function useSwipe(
  el: HTMLElement | null,
  onSwipe: (direction: 'left' | 'right') => void,
  blocked: () => boolean,
): void {
  const latest = useLatest({ onSwipe, blocked });
  useEffect(() => {
    if (!el) return;
    let start: { x: number; y: number } | null = null;
    const down = (e: TouchEvent) => {
      const t = e.touches[0];
      start = t && e.touches.length === 1 ? { x: t.clientX, y: t.clientY } : null;
    };
    const up = (e: TouchEvent) => {
      const t = e.changedTouches[0];
      if (!start || !t) return;
      const dx = t.clientX - start.x;
      const dy = t.clientY - start.y;
      start = null;
      if (Math.abs(dx) < 60 || Math.abs(dx) < 1.5 * Math.abs(dy) || latest.current.blocked()) return;
      latest.current.onSwipe(dx < 0 ? 'left' : 'right');
    };
    el.addEventListener('touchstart', down, { passive: true });
    el.addEventListener('touchend', up, { passive: true });
    return () => {
      el.removeEventListener('touchstart', down);
      el.removeEventListener('touchend', up);
    };
  }, [el, latest]);
}
