import { useRef, useState, type FormEvent } from 'react';
import type { Picture } from '../../../../../common/api/pictures';
import { formatMoney } from '../../../../../common/money';
import { useDismiss } from '../../../hooks/useDismiss';
import { newActionKey } from '../../../lib/api';
import { cleanDollarInput, dollarsToCents, isBlockedAmountKey } from '../../../lib/moneyInput';
import { openPopup } from '../../../lib/popups';
import { useLoggedIn } from '../../../lib/session';
import { useProfile } from '../../users/api/profile';
import { useFundPicture } from '../api/mutations';
import { useFlash } from '../lib/hooks';
import { priceTagWidth } from '../lib/rank';

/**
 * The price tag (SPEC §4): collapsed it shows the picture's fund, on hover a plus, clicked an input of whole dollars
 * and a send arrow. Logged out, a click opens the sign-in popup. A click outside or Escape collapses it.
 */
export function PriceTag({ picture }: { picture: Picture }) {
  const loggedIn = useLoggedIn();
  const { data: profile } = useProfile();
  const fund = useFundPicture();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const cents = dollarsToCents(text);
  const sendFlash = useFlash(cents);
  const totalFlash = useFlash(picture.totalAmount);
  const total = formatMoney(picture.totalAmount);

  useDismiss(open, root, () => setOpen(false));

  const expand = () => {
    if (!loggedIn) openPopup({ kind: 'signIn' });
    else setOpen(true);
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (cents === undefined || fund.isPending || !profile) return;
    // A shortfall is known before asking: the top-up opens with it (SPEC §5 "Money entry").
    if (cents > profile.balance) {
      openPopup({ kind: 'addMoney', missing: cents - profile.balance });
      return;
    }
    fund.mutate(
      { imageId: picture.id, amount: cents, balance: profile.balance, actionKey: newActionKey() },
      {
        onSuccess: () => {
          setText('');
          setOpen(false);
        },
      },
    );
  };

  return (
    <div className="price-tag-wrap" ref={root}>
      {open ? (
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
            onChange={(e) => setText(cleanDollarInput(e.target.value))}
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
      ) : (
        <button
          type="button"
          className={`price-tag${totalFlash ? ` flash--${totalFlash}` : ''}`}
          style={{ minWidth: priceTagWidth(picture.totalAmount) }}
          aria-label={`${total} on this picture, add money`}
          data-testid="price-tag"
          onClick={expand}
        >
          <span className="price-tag__amount">{total}</span>
          <span className="price-tag__plus" aria-hidden="true">
            +
          </span>
        </button>
      )}
    </div>
  );
}
