import { useRef, useState } from 'react';
import { Link } from '../lib/router';
import { formatMoney } from '../../../common/money';
import { logout } from '../features/auth/api/logout';
import { useProfile } from '../features/users/api/profile';
import { Avatar } from '../features/users/components/Avatar';
import { useDismiss } from '../hooks/useDismiss';
import { openPopup } from '../lib/popups';
import { install, useInstallOffer } from '../lib/pwa';
import { useLoggedIn } from '../lib/session';
import { tenant } from '../lib/tenant';

/** What clicking the balance offers: a card top-up, or on a charity tenant the donation-link popup. */
const ADD = tenant === 'charity' ? 'Donation link' : 'Add money';

/** Characters from which a balance is drawn smaller on a phone: '$1,000.00'. */
const LONG_BALANCE = 9;

/** The balance, or a placeholder while it is unknown; clicking it adds money (a donation link on a charity tenant). */
export function Balance({ compact }: { compact?: boolean }) {
  const { data } = useProfile();
  const text = data ? formatMoney(data.balance) : '$—';
  // From $1,000.00 on, a phone's header draws the balance smaller so that the avatar stays on the screen.
  const long = text.length >= LONG_BALANCE;
  return (
    <button
      type="button"
      className={['balance', compact && 'balance--compact', long && 'balance--long'].filter(Boolean).join(' ')}
      aria-label={`${data ? `Balance ${text}` : 'Balance loading'}, ${ADD.toLowerCase()}`}
      data-tip={ADD}
      data-testid="balance"
      onClick={() => openPopup({ kind: 'addMoney' })}
    >
      {text}
    </button>
  );
}

/** Header user area: SIGN IN when logged out; else name, balance, avatar and the account dropdown. */
export function UserArea() {
  const loggedIn = useLoggedIn();
  const { data: profile } = useProfile();
  const [open, setOpen] = useState(false);
  const installable = useInstallOffer() !== null;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useDismiss(open, root, (via) => {
    setOpen(false);
    if (via === 'escape') button.current?.focus();
  });

  if (!loggedIn) {
    return (
      <button type="button" className="button button--primary sign-in" onClick={() => openPopup({ kind: 'signIn' })}>
        SIGN IN
      </button>
    );
  }

  const close = () => setOpen(false);
  return (
    <div className="user-area" ref={root}>
      {/* A long name ends in '…' in the header; the title gives it whole. */}
      <span className="user-area__name" data-testid="username" title={profile?.username ?? undefined}>
        {profile?.username ?? '…'}
      </span>
      <Balance />
      <button
        ref={button}
        type="button"
        className="user-area__avatar"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Avatar url={profile?.profileImageUrl} />
      </button>
      {open && (
        <div className="dropdown" role="menu" aria-label="Account">
          <Link role="menuitem" to="/goodwill" onClick={close}>
            Swag
          </Link>
          <Link role="menuitem" to="/profile/edit" onClick={close}>
            Set Profile
          </Link>
          <Link role="menuitem" to="/transactions" onClick={close}>
            Transactions
          </Link>
          <Link role="menuitem" to="/notifications" onClick={close}>
            Notifications
          </Link>
          <Link role="menuitem" to="/moderation" onClick={close}>
            Moderation decisions
          </Link>
          <Link role="menuitem" to="/blocked" onClick={close}>
            Blocked users
          </Link>
          {/* Only where the browser offers to install the app (docs/product.md#push). */}
          {installable && (
            <button
              role="menuitem"
              type="button"
              onClick={() => {
                close();
                install();
              }}
            >
              Install
            </button>
          )}
          <button role="menuitem" type="button" onClick={() => void logout()}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
