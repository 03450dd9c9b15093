import { openPopup } from '../../../lib/popups';

/** A visitor's statement: there is none to show, so the page asks them to sign in. */
export function SignInFirst() {
  return (
    <section className="page transactions">
      <h1>Transactions</h1>
      <p className="muted">Sign in to see your transactions.</p>
      <button type="button" className="button button--primary" onClick={() => openPopup({ kind: 'signIn' })}>
        SIGN IN
      </button>
    </section>
  );
}
