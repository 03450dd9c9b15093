import { useId, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '../../../hooks/useDismiss';

/** A button that opens a small panel of choices under it; a press outside or Escape closes it. */
export function Dropdown({
  label,
  summary,
  align = 'start',
  children,
}: {
  label: string;
  summary?: string;
  /** Which edge of the button the panel lines up with, so it opens towards the screen rather than off it. */
  align?: 'start' | 'end';
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  useDismiss(open, root, (via) => {
    setOpen(false);
    if (via === 'escape') button.current?.focus();
  });
  return (
    <div className="items-dropdown" ref={root}>
      <button
        ref={button}
        type="button"
        className="button items-dropdown__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        {summary && <span className="items-dropdown__summary">{summary}</span>}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div id={panelId} className={`items-dropdown__panel items-dropdown__panel--${align}`}>
          {children}
        </div>
      )}
    </div>
  );
}
