import { CausePicker } from '../features/goodwill/components/CausePicker';
import { PaymentsList } from '../features/goodwill/components/PaymentsList';
import { openPopup } from '../lib/popups';
import { Link } from '../lib/router';
import { useLoggedIn } from '../lib/session';
import '../features/goodwill/goodwill.css';

/** docs/product.md#goodwill: the cause half of every spend goes to, the user's payments, and a link to the proof. */
export default function GoodwillPage() {
  const loggedIn = useLoggedIn();
  return (
    <section className="goodwill" aria-labelledby="goodwill-title">
      <header className="goodwill__card">
        <h1 id="goodwill-title">Swag</h1>
        <p className="muted">
          Half of the money you send is forwarded to the cause you choose. Change it at any time: each payment goes to
          the cause chosen when it was made.
        </p>
        <Link to="/goodwill/proof">How to check the payments →</Link>
      </header>
      {loggedIn ? (
        <>
          <div className="goodwill__card">
            <CausePicker />
          </div>
          <div className="goodwill__card">
            <h2>Your payments</h2>
            <PaymentsList />
          </div>
        </>
      ) : (
        <div className="goodwill__card">
          <p>Sign in to choose your cause and see your payments.</p>
          <div className="goodwill__actions">
            <button type="button" className="button button--primary" onClick={() => openPopup({ kind: 'signIn' })}>
              Sign in
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
