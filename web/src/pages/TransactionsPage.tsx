import { TransactionSummaryList } from '../features/transactions/components/TransactionSummaryList';
import '../features/transactions/transactions.css';

/** docs/product.md#statement: the types with their sums, and the whole statement as CSV. */
export default function TransactionsPage() {
  return <TransactionSummaryList />;
}
