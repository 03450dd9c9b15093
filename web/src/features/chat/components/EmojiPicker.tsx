import { useMemo, useRef, useState } from 'react';
import { useDismiss } from '../../../hooks/useDismiss';
import { useItemDetails } from '../../items/api/details';

/** docs/product.md#chat: the emoji picker, signed-in users only, offering the emojis the user owns; a click outside closes it. */
export function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  const { data } = useItemDetails();
  const owned = useMemo(() => (data ?? []).filter((i) => i.rarity > 1 && i.user.quantity > 0), [data]);
  return (
    <div className="emoji-picker" ref={root}>
      <button
        type="button"
        className="emoji-picker__toggle"
        aria-label="Emojis"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {/* Drawn, not an emoji character: a system without an emoji font would show an empty box. */}
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <circle cx="9" cy="10" r="1.3" fill="currentColor" />
          <circle cx="15" cy="10" r="1.3" fill="currentColor" />
          <path d="M8 14.5c1 1.6 2.4 2.4 4 2.4s3-.8 4-2.4" fill="none" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </button>
      {open && (
        <div className="emoji-picker__panel" role="dialog" aria-label="Your emojis">
          {owned.length === 0 ? (
            <p className="emoji-picker__empty">You own no emojis yet: lootboxes and the market have them.</p>
          ) : (
            <ul className="emoji-picker__grid">
              {owned.map((item) => (
                <li key={item.itemType}>
                  <button type="button" title={item.name} aria-label={item.name} onClick={() => onPick(item.emoji)}>
                    {item.emoji}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
