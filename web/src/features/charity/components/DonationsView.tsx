import { DONATION_STATUSES, PUBLIC_DONATION_STATUSES } from '../../../../../common/charity';
import { openPopup } from '../../../lib/popups';
import { Link } from '../../../lib/router';
import { useDonationLinks, type DonationScope } from '../api/links';
import { useDonationsLive } from '../lib/live';
import { DonationList } from './DonationList';

/**
 * docs/product.md#charity: 'Donation links', the MY/ALL toggle between /my-donations and /public-donations,
 * the status chips (the public list offers only Approved and Rejected) and the cards.
 */
export function DonationsView({ scope, signedIn }: { scope: DonationScope; signedIn: boolean }) {
  const needsSignIn = scope === 'my' && !signedIn;
  const { links, loading, more, loadingMore } = useDonationLinks(scope, !needsSignIn);
  useDonationsLive(scope, !needsSignIn);
  return (
    <section className="page donations" aria-labelledby="donations-title">
      <header className="donations__header">
        <h1 id="donations-title">Donation links</h1>
        <nav className="donations__toggle" aria-label="Whose links">
          <Link to="/my-donations" aria-current={scope === 'my' ? 'page' : undefined}>
            MY
          </Link>
          <Link to="/public-donations" aria-current={scope === 'public' ? 'page' : undefined}>
            ALL
          </Link>
        </nav>
      </header>
      {needsSignIn ? (
        <div className="stack">
          <p className="muted">Sign in to see the donation links you sent.</p>
          <div>
            <button type="button" className="button button--primary" onClick={() => openPopup({ kind: 'signIn' })}>
              SIGN IN
            </button>
          </div>
        </div>
      ) : (
        <DonationList
          key={scope}
          links={links}
          loading={loading}
          more={more}
          loadingMore={loadingMore}
          offered={scope === 'public' ? PUBLIC_DONATION_STATUSES : DONATION_STATUSES}
        />
      )}
    </section>
  );
}
