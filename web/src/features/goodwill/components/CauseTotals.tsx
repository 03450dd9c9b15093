import { formatMoney } from '../../../../../common/money';
import { GOODWILL_LABELS } from '../../../../../common/goodwill';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useTotals } from '../api/goodwill';
import { TEXT } from './CausePicker';

/** Per cause: what was paid in, what waits for the next forwarding, and what was forwarded. */
export function CauseTotals() {
  const totals = useTotals();
  if (totals.isPending) return <p className="loading">Loading...</p>;
  if (totals.isError) return <LoadFailed text={TEXT.fetchFailed} onRetry={() => void totals.refetch()} />;
  const money = (cents: number) => formatMoney(cents, { decimals: 'always' });
  return (
    <div className="goodwill__table-wrap">
      <table className="goodwill__totals">
        <thead>
          <tr>
            <th scope="col">Cause</th>
            <th scope="col">Paid in</th>
            <th scope="col">Pending</th>
            <th scope="col">Forwarded</th>
          </tr>
        </thead>
        <tbody>
          {totals.data.map((c) => (
            <tr key={c.cause} data-testid={`goodwill-total-${c.cause}`}>
              <th scope="row">{GOODWILL_LABELS[c.cause]}</th>
              <td>{money(c.paidIn)}</td>
              <td>{money(c.pending)}</td>
              <td>{money(c.forwarded)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
