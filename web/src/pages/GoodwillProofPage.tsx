import { GOODWILL_CSV_NAME, GOODWILL_REFERENCE } from '../../../common/goodwill';
import { PAYMENTS_CSV_URL } from '../features/goodwill/api/goodwill';
import { CauseTotals } from '../features/goodwill/components/CauseTotals';
import { Link } from '../lib/router';
import '../features/goodwill/goodwill.css';

/** Downloads the public CSV of forwarded batches. */
function downloadPayments() {
  const a = document.createElement('a');
  a.href = PAYMENTS_CSV_URL;
  a.download = GOODWILL_CSV_NAME;
  document.body.append(a);
  a.click();
  a.remove();
}

/** docs/product.md#goodwill: how anyone can check that the money reached the causes. */
export default function GoodwillProofPage() {
  return (
    <section className="goodwill" aria-labelledby="proof-title">
      <header className="goodwill__card">
        <h1 id="proof-title">How to check the payments</h1>
        <p>
          Half of every payment on this site is set aside for the cause its payer chose. The money set aside is
          forwarded to the causes at monthly and three-monthly intervals: once a month it is moved out of the
          site&apos;s books as one batch per cause, and the batches are paid to the organisations every month or every
          three months.
        </p>
        <p>
          Every transfer to an organisation carries the payment reference <code>{GOODWILL_REFERENCE}</code> followed by
          the month and the batch number, for example <code>{GOODWILL_REFERENCE}-202601-12</code>. Your own payments
          page shows the reference of the batch each of your payments went out in.
        </p>
        <p className="muted">
          The Payments file lists every batch: its number, the cause, the amount in cents, when it was forwarded and its
          reference. Compare it with the organisations&apos; published donations.
        </p>
        <div className="goodwill__actions">
          <button type="button" className="button button--primary" onClick={downloadPayments}>
            Payments
          </button>
          <Link to="/goodwill">← Back to Swag</Link>
        </div>
      </header>
      <div className="goodwill__card">
        <h2>Per cause</h2>
        <p className="muted">
          Paid in: every share ever set aside. Pending: waiting for the next forwarding. Forwarded: moved out in
          batches.
        </p>
        <CauseTotals />
      </div>
    </section>
  );
}
