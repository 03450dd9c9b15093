import { formatDateTime } from '../../../../../common/time';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useLedgerCheck } from '../api/admin';
import { healthFigures } from '../lib/health';

/** The Health tab (docs/product.md#admin): the conservation check of money and items, each figure ok or failed. */
export function HealthCheck() {
  const query = useLedgerCheck();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError) return <LoadFailed text="Failed to run the check." onRetry={() => void query.refetch()} />;
  const report = query.data;
  return (
    <div className="stack">
      <p className={report.ok ? 'form-success' : 'form-error'} role="status">
        {report.ok ? 'The books balance: ok' : 'The books do not balance: failed'}
      </p>
      <table className="admin-health">
        <caption className="muted">Checked {formatDateTime(query.dataUpdatedAt)}</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Value</th>
            <th scope="col">Check</th>
          </tr>
        </thead>
        <tbody>
          {healthFigures(report).map((f) => (
            <tr key={f.label} data-testid="health-figure">
              <th scope="row">{f.label}</th>
              <td>{f.value}</td>
              <td className={f.ok ? 'admin-health__ok' : 'admin-health__failed'}>{f.ok ? 'ok' : 'failed'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div>
        <button type="button" className="button" disabled={query.isFetching} onClick={() => void query.refetch()}>
          Check again
        </button>
      </div>
    </div>
  );
}
