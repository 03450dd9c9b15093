import { useEffect, useState } from 'react';
import './GlobalTooltip.css';

interface Tip {
  text: string;
  x: number;
  y: number;
  below: boolean;
}

let pin: ((el: HTMLElement, text: string) => void) | undefined;
/** Shows a tooltip for a moment without hover (touch screens, the help button). */
export function showTooltip(el: HTMLElement, text: string): void {
  pin?.(el, text);
}

function place(el: Element, text: string): Tip {
  const r = el.getBoundingClientRect();
  const below = r.top < 80;
  return {
    text,
    x: Math.min(Math.max(r.left + r.width / 2, 110), window.innerWidth - 110),
    y: below ? r.bottom + 8 : r.top - 8,
    below,
  };
}

/** One tooltip on top of everything, fed by any element with a `data-tip` attribute. */
export function GlobalTooltip() {
  const [tip, setTip] = useState<Tip | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (e: Event) => {
      const el = (e.target as Element | null)?.closest?.('[data-tip]');
      const text = el?.getAttribute('data-tip');
      if (el && text) {
        clearTimeout(timer);
        setTip(place(el, text));
      }
    };
    const hide = (e: Event) => {
      const el = (e.target as Element | null)?.closest?.('[data-tip]');
      if (el) setTip(null);
    };
    pin = (el, text) => {
      setTip(place(el, text));
      clearTimeout(timer);
      timer = setTimeout(() => setTip(null), 4000);
    };
    const clear = () => setTip(null);
    document.addEventListener('pointerover', show);
    document.addEventListener('pointerout', hide);
    document.addEventListener('focusin', show);
    document.addEventListener('focusout', hide);
    window.addEventListener('scroll', clear, true);
    return () => {
      pin = undefined;
      clearTimeout(timer);
      document.removeEventListener('pointerover', show);
      document.removeEventListener('pointerout', hide);
      document.removeEventListener('focusin', show);
      document.removeEventListener('focusout', hide);
      window.removeEventListener('scroll', clear, true);
    };
  }, []);

  if (!tip) return null;
  return (
    <div
      role="tooltip"
      id="global-tooltip"
      className={tip.below ? 'global-tooltip global-tooltip--below' : 'global-tooltip'}
      style={{ left: tip.x, top: tip.y }}
    >
      {tip.text}
    </div>
  );
}
