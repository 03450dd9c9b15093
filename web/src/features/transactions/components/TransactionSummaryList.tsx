import { formatMoney } from '../../../../../common/money';
import { TRANSACTION_TYPES } from '../../../../../common/transactions';
import { useLoggedIn } from '../../../lib/session';
import { SignInFirst } from './SignInFirst';
import { Link } from '../../../lib/router';
import { TRANSACTIONS_CSV_URL, useStatementFollowsBalance, useTransactionSummary } from '../api/transactions';
import { ALWAYS_LISTED, amountClass, heldText, TYPE_LABEL } from '../lib/format';
import { ErrorLine } from '../../../components/ui/ErrorLine';

/** /transactions: each type with its signed sum, each row going to /transactions/{type} (docs/product.md#statement). */
export function TransactionSummaryList() {
  const { data, error, isPending } = useTransactionSummary();
  useStatementFollowsBalance();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <SignInFirst />;
  return (
    <section className="page transactions" aria-labelledby="transactions-title">
      <header className="transactions__head">
        <h1 id="transactions-title">Transactions</h1>
        <a className="button" href={TRANSACTIONS_CSV_URL} download data-testid="transactions-csv">
          Download CSV
        </a>
      </header>
      {error ? (
        <ErrorLine error={error} />
      ) : isPending ? (
        <p className="muted">Loading...</p>
      ) : (
        <>
          <ul className="transactions__types" aria-label="Transaction types">
            {TRANSACTION_TYPES.filter((type) => ALWAYS_LISTED.includes(type) || data[type] !== 0).map((type) => (
              <li key={type}>
                <Link className="transactions__type" to={`/transactions/${type}`} data-type={type}>
                  <span>{TYPE_LABEL[type]}</span>
                  <span className={amountClass(data[type])}>{formatMoney(data[type])}</span>
                </Link>
              </li>
            ))}
          </ul>
          <HeldInOffers held={data.held} />
        </>
      )}
    </section>
  );
}

/** Money the user's open buy offers hold: theirs, not spent, so apart from the types (which it adds up with). */
function HeldInOffers({ held }: { held: number }) {
  const text = heldText(held);
  if (!text) return null;
  return (
    <div className="transactions__held" data-testid="transactions-held">
      <p>{text}</p>
      <p className="muted">
        Set aside for your open buy offers. It is spent only when an offer fills, and comes back if you cancel it.
      </p>
    </div>
  );
}
