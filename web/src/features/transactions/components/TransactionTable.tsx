import type { TransactionRow } from '../../../../../common/api/transactions';
import type { TransactionType } from '../../../../../common/transactions';
import { itemName } from '../../../../../common/items';
import { formatMoney } from '../../../../../common/money';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { useLoggedIn } from '../../../lib/session';
import { SignInFirst } from './SignInFirst';
import { Link, useNavigate } from '../../../lib/router';
import { useStatementFollowsBalance, useTransactionRows } from '../api/transactions';
import { formatDateTime } from '../../../../../common/time';
import { amountClass, firstColumnOf, linkOf, shortMessage, TYPE_LABEL } from '../lib/format';
import { ErrorLine } from '../../../components/ui/ErrorLine';

function Preview({ type, row }: { type: TransactionType; row: TransactionRow }) {
  const preview = row.resourcePreview;
  if (preview === null) return <span className="muted">—</span>;
  switch (type) {
    case 'IMAGE':
      return (
        <img className="transactions__thumb" src={preview} alt={`Picture ${row.resourceId ?? ''}`} loading="lazy" />
      );
    case 'ITEM_BUY':
    case 'ITEM_SELL':
    case 'REACTION':
      // The preview is the item's code (docs/product.md#statement): shown as its icon and catalogue name.
      return (
        <span className="transactions__item">
          <ItemIcon itemType={preview} size={28} />
          <span>{itemName(preview)}</span>
        </span>
      );
    case 'CHAT_MESSAGE':
      return <span title={preview}>{shortMessage(preview)}</span>;
    case 'COMMENT':
    case 'PIN':
    case 'KEY':
    case 'GRAPH':
    case 'TOP_UP':
    case 'CHARITY':
    case 'REFUND':
      return <span className="transactions__text">{preview}</span>;
  }
}

/** /transactions/{type}: the type's rows, newest first: a first column for the type, then Time and Amount (docs/product.md#statement). */
export function TransactionTable({ type }: { type: TransactionType }) {
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useTransactionRows(type);
  const navigate = useNavigate();
  useStatementFollowsBalance();
  const loggedIn = useLoggedIn();
  const rows = data?.pages.flat() ?? [];
  if (!loggedIn) return <SignInFirst />;
  return (
    <section className="page transactions" aria-labelledby="transactions-title">
      <header className="transactions__head">
        <h1 id="transactions-title">{TYPE_LABEL[type]}</h1>
        <Link to="/transactions">← All transactions</Link>
      </header>
      {error ? (
        <ErrorLine error={error} />
      ) : isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">No details available for this transaction.</p>
      ) : (
        <>
          <table className="transactions__table">
            <thead>
              <tr>
                <th scope="col">{firstColumnOf(type)}</th>
                <th scope="col">Time</th>
                <th scope="col" className="transactions__amount-head">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const to = linkOf(type, row);
                return (
                  <tr
                    key={row.id}
                    className={to ? 'transactions__row transactions__row--link' : 'transactions__row'}
                    onClick={to ? () => navigate(to) : undefined}
                  >
                    <td>
                      {to ? (
                        <Link to={to} onClick={(e) => e.stopPropagation()}>
                          <Preview type={type} row={row} />
                        </Link>
                      ) : (
                        <Preview type={type} row={row} />
                      )}
                    </td>
                    <td>
                      <time dateTime={row.time}>{formatDateTime(row.time)}</time>
                    </td>
                    <td className={amountClass(row.payAmount)}>{formatMoney(row.payAmount)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {hasNextPage && (
            <button type="button" className="button" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              {isFetchingNextPage ? 'Loading...' : 'Show more'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
