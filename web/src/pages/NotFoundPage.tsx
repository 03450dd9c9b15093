import { Link, useLocation } from '../lib/router';
import { openPopup } from '../lib/popups';
import { useLoggedIn } from '../lib/session';

/** Any path the route table does not know (docs/decisions.md "Not found"): say so, and lead back home. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="page stack" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>. The link may be old, or the address may have a typo.
      </p>
      <div className="row">
        <Link className="button button--primary" to="/">
          Back to the wall
        </Link>
      </div>
    </section>
  );
}

/**
 * /my-donations and /public-donations on a cash tenant (docs/product.md#tenants: donation links exist where card top-up does not):
 * what they are and where they live, rather than a page that seems missing.
 */
export function DonationsElsewherePage() {
  const loggedIn = useLoggedIn();
  return (
    <section className="page stack" aria-labelledby="donations-elsewhere-title">
      <h1 id="donations-elsewhere-title">Donation links</h1>
      <p>
        Donation links are sent and listed on the charity sites of this app, where money comes from donations to a
        charity. On this site you add money by card instead.
      </p>
      <div className="row">
        <button
          type="button"
          className="button button--primary"
          onClick={() => openPopup(loggedIn ? { kind: 'addMoney' } : { kind: 'signIn' })}
        >
          {loggedIn ? 'Add money' : 'Sign in to add money'}
        </button>
        <Link className="button" to="/">
          Back to the wall
        </Link>
      </div>
    </section>
  );
}
