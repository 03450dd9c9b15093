import type { FormEvent } from 'react';
import type { Picture } from '../../../../../common/api/pictures';
import { formatMoney } from '../../../../../common/money';
import { cleanDollarInput, dollarsToCents, isBlockedAmountKey } from '../../../lib/money-input';
import { openPopup } from '../../../lib/popups';
import { useProfile } from '../../users/api/profile';
import { useFundPicture } from '../api/mutations';
import { followCard } from '../lib/follow';
import { useFlash } from '../../../hooks/useFlash';

export interface PriceTagFormProps {
  picture: Picture;
  /** The input's text, kept by the price tag so a collapsed and reopened tag shows it again. */
  text: string;
  onText: (text: string) => void;
  onDone: () => void;
}

/**
 * The open price tag: an input of whole dollars and a send arrow. A chunk of its own (with the fund mutation), loaded
 * when a tag is first opened or hovered, since a wall shows only collapsed tags.
 */
export default function PriceTagForm({ picture, text, onText, onDone }: PriceTagFormProps) {
  const { data: profile } = useProfile();
  const fund = useFundPicture();
  const cents = dollarsToCents(text);
  const sendFlash = useFlash(cents);

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (cents === undefined || fund.isPending || !profile) return;
    // A shortfall is known before asking: the top-up opens with it (docs/product.md#funding).
    if (cents > profile.balance) {
      openPopup({ kind: 'addMoney', missing: cents - profile.balance });
      return;
    }
    followCard(picture.id);
    fund.run({ imageId: picture.id, amount: cents, balance: profile.balance }).then(
      () => {
        onText('');
        onDone();
      },
      () => {},
    );
  };

  return (
    <form className="price-tag price-tag--open" onSubmit={send} noValidate>
      <span className="price-tag__dollar" aria-hidden="true">
        $
      </span>
      <input
        className="price-tag__input"
        aria-label={`Dollars to add to the picture by ${picture.authorName}`}
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={6}
        autoFocus
        placeholder="1"
        value={text}
        onKeyDown={(e) => {
          if (isBlockedAmountKey(e.key)) e.preventDefault();
        }}
        onChange={(e) => onText(cleanDollarInput(e.target.value))}
      />
      <button
        type="submit"
        className={`price-tag__send${sendFlash ? ` flash--${sendFlash}` : ''}`}
        aria-label={cents ? `Send ${formatMoney(cents)}` : 'Send'}
        disabled={cents === undefined || fund.isPending}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M3 20v-6l9-2-9-2V4l19 8z" fill="currentColor" />
        </svg>
      </button>
    </form>
  );
}
