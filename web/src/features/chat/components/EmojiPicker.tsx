import { useMemo, useRef, useState } from 'react';
import { useDismiss } from '../../../hooks/useDismiss';
import { useItemDetails } from '../../items/api/details';

/** SPEC §2 "Chat": the emoji picker, signed-in users only, offering the emojis the user owns; a click outside closes it. */
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
        🙂
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
