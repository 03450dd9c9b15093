import { formatDateTime } from '../../../../../common/time';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useModerationLog } from '../api/moderation';
import { actionLabel, APPEAL_LABELS, categoryLabel, contentLabel } from '../lib/labels';

/**
 * The public moderation log (docs/product.md#moderation-screens): each decision's date, content type, category,
 * action, whether it suspended, and the appeal's outcome; no names and no content. Older pages on 'Load more'.
 */
export function ModerationLogList() {
  const query = useModerationLog();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError) return <LoadFailed text="Failed to load the log." onRetry={() => void query.refetch()} />;
  const entries = query.data.pages.flatMap((p) => p.entries);
  return (
    <div className="stack">
      {entries.length === 0 ? (
        <p className="muted">No decisions yet.</p>
      ) : (
        <ul className="moderation-list">
          {entries.map((e, i) => (
            <li key={`${e.decidedOn}/${i}`} className="moderation-log-entry" data-testid="log-entry">
              <time dateTime={e.decidedOn}>{formatDateTime(e.decidedOn)}</time>
              <span className="admin-report__type">{contentLabel(e.contentType)}</span>
              <span>{categoryLabel(e.category)}</span>
              <strong>{actionLabel(e.action)}</strong>
              {e.suspended && <span>Author suspended</span>}
              {e.appeal && <span>{APPEAL_LABELS[e.appeal]}</span>}
            </li>
          ))}
        </ul>
      )}
      {query.isFetchNextPageError && (
        <p className="form-error" role="alert">
          Failed to load more.
        </p>
      )}
      {query.hasNextPage && (
        <div>
          <button
            type="button"
            className="button"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Load more
          </button>
        </div>
      )}
    </div>
  );
}
