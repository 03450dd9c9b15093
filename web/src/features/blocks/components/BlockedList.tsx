import { useState } from 'react';
import { formatDateTime } from '../../../../../common/time';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { Link } from '../../../lib/router';
import { useUnblock } from '../api/blocks';
import { useBlocked } from '../api/blocked-ids';

/** The blocked users (docs/product.md#moderation-screens), each with 'Unblock'. */
export function BlockedList() {
  const query = useBlocked();
  const unblock = useUnblock();
  const [failed, setFailed] = useState<number | undefined>();
  if (query.isPending) return <p className="loading">Loading...</p>;
  if (query.isError)
    return <LoadFailed text="Failed to load the blocked users." onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="muted">You have not blocked anyone.</p>;
  return (
    <ul className="moderation-list">
      {query.data.map((b) => (
        <li key={b.userId} className="blocked-user" data-testid="blocked-user">
          <div className="blocked-user__who">
            <Link to={`/profile/${b.userId}`}>{b.username}</Link>
            <span className="muted">Blocked {formatDateTime(b.blockedOn)}</span>
          </div>
          <button
            type="button"
            className="button"
            disabled={unblock.isPending}
            onClick={() => {
              setFailed(undefined);
              unblock.run(b.userId).catch(() => setFailed(b.userId));
            }}
          >
            Unblock
          </button>
          {failed === b.userId && (
            <p className="form-error" role="alert">
              Unblocking failed. Try again.
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
