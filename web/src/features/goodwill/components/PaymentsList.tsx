import { formatMoney } from '../../../../../common/money';
import { GOODWILL_LABELS, GOODWILL_STATUS_LABELS } from '../../../../../common/goodwill';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { usePayments, usePaymentsFollowSpending } from '../api/goodwill';
import { TEXT } from './CausePicker';

/** The user's shares, newest first: amount, cause, when, and whether it was forwarded (with the batch's reference). */
export function PaymentsList() {
  const payments = usePayments();
  usePaymentsFollowSpending();
  if (payments.isPending) return <p className="loading">Loading...</p>;
  if (payments.isError) return <LoadFailed text={TEXT.fetchFailed} onRetry={() => void payments.refetch()} />;
  const list = payments.data.pages.flat();
  if (list.length === 0) return <p className="muted">No payments yet: half of what you spend lands here.</p>;
  return (
    <>
      <ul className="goodwill__payments" aria-label="Your goodwill payments">
        {list.map((p) => (
          <li key={p.id} className="goodwill__payment" data-testid="goodwill-payment">
            <span className="goodwill__amount">{formatMoney(p.amount, { decimals: 'always' })}</span>
            <span>{GOODWILL_LABELS[p.goodWillType]}</span>
            <RelativeTime at={p.paidOn} />
            <span className={`goodwill__status goodwill__status--${p.status.toLowerCase()}`}>
              {GOODWILL_STATUS_LABELS[p.status]}
            </span>
            {p.reference && <code className="goodwill__reference">{p.reference}</code>}
          </li>
        ))}
      </ul>
      {payments.hasNextPage && (
        <button
          type="button"
          className="button"
          disabled={payments.isFetchingNextPage}
          onClick={() => void payments.fetchNextPage()}
        >
          {payments.isFetchingNextPage ? 'Loading...' : 'Show older payments'}
        </button>
      )}
    </>
  );
}
