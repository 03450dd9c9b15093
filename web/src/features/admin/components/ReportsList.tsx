import { useState, type ReactNode } from 'react';
import type { AdminReport } from '../../../../../common/api/admin';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { REPORT_REASONS } from '../../../../../common/reports';
import { useReports } from '../api/admin';

/** A category as the report popup named it ('Political Propaganda'), not its code. */
const reasonLabel = (value: string) => REPORT_REASONS.find((r) => r.value === value)?.label ?? value;

const TYPE_LABELS = { COMMENT: 'Comment', CHAT: 'Chat message', PICTURE: 'Picture' } as const;

/**
 * The Reports tab (docs/product.md#admin): each report's type, reason, description, reporter, the reported text and
 * time; a decided one says what was decided, an open one offers 'Decide' (docs/product.md#moderation-screens) with
 * the form the page gives (`decide`).
 */
export function ReportsList({
  decide,
}: {
  decide?: (report: AdminReport, close: () => void) => ReactNode;
} = {}) {
  const query = useReports();
  const [open, setOpen] = useState<number | undefined>();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError) return <LoadFailed text="Failed to load the reports." onRetry={() => void query.refetch()} />;
  const reports = query.data.pages.flat();
  if (reports.length === 0) return <p className="muted">No reports.</p>;
  return (
    <div className="stack">
      <ul className="admin-reports">
        {reports.map((r) => (
          <li key={r.id} className="admin-report" data-testid="report">
            <header className="admin-report__header">
              <span className="admin-report__type">{TYPE_LABELS[r.type]}</span>
              <strong>{reasonLabel(r.reason)}</strong>
              <RelativeTime at={r.createdOn} />
            </header>
            <p className="admin-report__description">{r.description}</p>
            <blockquote className="admin-report__text">
              {r.messageText ?? <em className="muted">The message no longer exists.</em>}
            </blockquote>
            <p className="muted">
              Reported by {r.reporter.username} (id {r.reporter.id}) on message {r.messageId}
            </p>
            {r.decision ? (
              <p className="admin-report__decided" data-testid="report-decided">
                Decided: {r.decision.action === 'remove' ? 'removed' : 'dismissed'}{' '}
                <RelativeTime at={r.decision.decidedOn} />
              </p>
            ) : decide && open === r.id ? (
              decide(r, () => setOpen(undefined))
            ) : decide ? (
              <div>
                <button type="button" className="button" onClick={() => setOpen(r.id)}>
                  Decide
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {query.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Show older reports
        </button>
      ) : null}
    </div>
  );
}
