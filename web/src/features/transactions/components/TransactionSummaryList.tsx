import { formatMoney } from '../../../../../common/money';
import { TRANSACTION_TYPES } from '../../../../../common/transactions';
import { useLoggedIn } from '../../../lib/session';
import { SignInFirst } from './SignInFirst';
import { Link } from '../../../lib/router';
import { TRANSACTIONS_CSV_URL, useStatementFollowsBalance, useTransactionSummary } from '../api/transactions';
import { ALWAYS_LISTED, amountClass, TYPE_LABEL } from '../lib/format';

/** /transactions: each type with its signed sum, each row going to /transactions/{type} (SPEC §2). */
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
        <p className="form-error" role="alert">
          Error: {error.message}
        </p>
      ) : isPending ? (
        <p className="muted">Loading...</p>
      ) : (
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
      )}
    </section>
  );
}
