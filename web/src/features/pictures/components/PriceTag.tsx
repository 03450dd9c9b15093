import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { Picture } from '../../../../../common/api/pictures';
import { formatMoney } from '../../../../../common/money';
import { useDismiss } from '../../../hooks/useDismiss';
import { whenSettled } from '../../../lib/load-order';
import { openPopup } from '../../../lib/popups';
import { useLoggedIn } from '../../../lib/session';
import { useFlash } from '../../../hooks/useFlash';
import { priceTagWidth } from '../lib/rank';

const loadForm = () => import('./PriceTagForm');
const PriceTagForm = lazy(loadForm);
let formWarmed = false;
/** Fetches the open tag's chunk (once), so a click finds it there. */
const warmForm = () => {
  if (formWarmed) return;
  formWarmed = true;
  void loadForm().catch(() => {
    formWarmed = false;
  });
};

/**
 * The price tag (docs/product.md#funding): collapsed it shows the picture's fund, on hover a plus, clicked an input of whole dollars
 * and a send arrow. Logged out, a click opens the sign-in popup. A click outside or Escape collapses it.
 */
export function PriceTag({ picture }: { picture: Picture }) {
  const loggedIn = useLoggedIn();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const totalFlash = useFlash(picture.totalAmount);
  const total = formatMoney(picture.totalAmount);

  useDismiss(open, root, () => setOpen(false));
  // Signed in, the form is fetched once the page has loaded; hovering or focusing a tag fetches it sooner.
  useEffect(() => (loggedIn ? whenSettled(warmForm) : undefined), [loggedIn]);

  const expand = () => {
    if (!loggedIn) openPopup({ kind: 'signIn' });
    else setOpen(true);
  };
  const warm = () => {
    if (loggedIn) warmForm();
  };

  const collapsed = (
    <button
      type="button"
      className={`price-tag${totalFlash ? ` flash--${totalFlash}` : ''}`}
      style={{ minWidth: priceTagWidth(picture.totalAmount) }}
      aria-label={`${total} on this picture, add money`}
      data-testid="price-tag"
      onClick={expand}
      onPointerEnter={warm}
      onFocus={warm}
    >
      <span className="price-tag__amount">{total}</span>
      <span className="price-tag__plus" aria-hidden="true">
        +
      </span>
    </button>
  );

  return (
    <div className="price-tag-wrap" ref={root}>
      {open ? (
        <Suspense fallback={collapsed}>
          <PriceTagForm picture={picture} text={text} onText={setText} onDone={() => setOpen(false)} />
        </Suspense>
      ) : (
        collapsed
      )}
    </div>
  );
}
