import { TransactionTable } from '../features/transactions/components/TransactionTable';
import { asTransactionType } from '../features/transactions/lib/format';
import { useParams } from '../lib/router';
import '../features/transactions/transactions.css';

/** docs/product.md#statement: one type's rows; an unknown type shows the empty text. */
export default function TransactionDetailPage() {
  const { type } = useParams();
  const known = asTransactionType(type);
  if (!known) {
    return (
      <section className="page transactions">
        <h1>Transactions</h1>
        <p className="muted">No details available for this transaction.</p>
      </section>
    );
  }
  return <TransactionTable key={known} type={known} />;
}
