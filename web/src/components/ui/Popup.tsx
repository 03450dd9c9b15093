import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { closePopup } from '../../lib/popups';
import './Popup.css';

/** The close button appears after a moment, so a double click that opened the popup does not close it. */
export const CLOSE_BUTTON_DELAY_MS = 400;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
}

/** A modal dialog: traps focus, closes on Escape, on the backdrop and on its close button. */
export function Popup({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const [showClose, setShowClose] = useState(false);

  useEffect(() => {
    const t = setTimeout(() => setShowClose(true), CLOSE_BUTTON_DELAY_MS);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    const root = dialog.current;
    if (!root) return;
    const first = root.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(root)[0] ?? root;
    first.focus();
  }, []);

  // On the document, so Escape and the focus trap work even when focus fell to the page (a control got disabled).
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const root = dialog.current;
      if (!root) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        closePopup();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusables(root);
      const active = document.activeElement;
      if (items.length === 0) {
        e.preventDefault();
        root.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (!root.contains(active)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      } else if (e.shiftKey && (active === first || active === root)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div
      className="popup-backdrop"
      data-testid="popup-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) closePopup();
      }}
    >
      <div
        ref={dialog}
        className={wide ? 'popup popup--wide' : 'popup'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className="popup__header">
          <h2 id={titleId} className="popup__title">
            {title}
          </h2>
          {showClose && (
            <button type="button" className="popup__close" aria-label="Close" onClick={closePopup}>
              ×
            </button>
          )}
        </header>
        {children}
      </div>
    </div>
  );
}
