import { useState } from 'react';
import type { DonationLink } from '../../../../../common/api/charity';
import type { DonationStatus } from '../../../../../common/charity';
import { filterByStatus } from '../lib/status';
import { DonationCard } from './DonationCard';
import { StatusChips } from './StatusChips';

/** The status chips over the cards; 'Loading...' until the list came (or failed, which leaves it empty). */
export function DonationList({
  links,
  loading,
  offered,
  admin = false,
  onPick,
  more,
  loadingMore = false,
}: {
  links: readonly DonationLink[];
  loading: boolean;
  offered: readonly DonationStatus[];
  admin?: boolean;
  /** The admin list: a button under each card hands its id to the form. */
  onPick?: (link: DonationLink) => void;
  /** Loads the next older page; absent when there is none. */
  more?: () => void;
  loadingMore?: boolean;
}) {
  const [selected, setSelected] = useState<Set<DonationStatus>>(() => new Set());
  const shown = filterByStatus(links, selected);
  return (
    <div className="donations__list">
      <StatusChips offered={offered} selected={selected} onChange={setSelected} />
      {loading ? (
        <p className="loading">Loading...</p>
      ) : shown.length === 0 ? (
        <p className="muted">No donation links.</p>
      ) : (
        <ul className="donations__cards">
          {shown.map((l) => (
            <li key={l.id}>
              <DonationCard link={l} admin={admin} />
              {onPick ? (
                <button type="button" className="button donations__pick" onClick={() => onPick(l)}>
                  Use link {l.id} in the form
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {more && !loading ? (
        <div>
          <button type="button" className="button" disabled={loadingMore} onClick={more}>
            {loadingMore ? 'Loading...' : 'Show older links'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
