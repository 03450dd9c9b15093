import { useEffect, useId, useRef, useState } from 'react';
import { DONATION_STATUSES } from '../../../../../common/charity';
import { useAdminLinks } from '../api/admin';
import { useDonationsLive } from '../lib/live';
import { newestFirst } from '../lib/status';
import { CharityForm } from './CharityForm';
import { DonationList } from './DonationList';

/** The console's Charity Form tab: the form, and the admin list of links (everyone's, or one user's). */
export function CharityAdmin() {
  const [linkId, setLinkId] = useState('');
  // A card's button starts the form afresh for its link (docs/decisions.md "Each link starts clean").
  const [picks, setPicks] = useState(0);
  const [userId, setUserId] = useState('');
  const userFieldId = useId();
  const linkIdInput = useRef<HTMLInputElement>(null);
  const user = /^\d{1,15}$/.test(userId.trim()) ? userId.trim() : undefined;
  useEffect(() => {
    if (picks === 0) return;
    // The form was made afresh for the picked link; on a phone it is a screen away: bring it back.
    linkIdInput.current?.focus();
    linkIdInput.current?.scrollIntoView({ block: 'center' });
  }, [picks]);
  const { links, loading, more, loadingMore } = useAdminLinks(user);
  useDonationsLive('admin');
  return (
    <div className="charity-admin">
      <CharityForm key={picks} linkId={linkId} onLinkId={setLinkId} linkIdRef={linkIdInput} />
      <section className="charity-admin__list" aria-label="Donation links">
        <div className="field">
          <label htmlFor={userFieldId}>User id: {userId.trim() || 'All users'}</label>
          <input
            id={userFieldId}
            inputMode="numeric"
            autoComplete="off"
            placeholder="All users"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          />
        </div>
        <DonationList
          key={user ?? 'all'}
          links={newestFirst(links)}
          loading={loading}
          more={more}
          loadingMore={loadingMore}
          offered={DONATION_STATUSES}
          admin
          onPick={(l) => {
            setLinkId(String(l.id));
            setPicks((n) => n + 1);
          }}
        />
      </section>
    </div>
  );
}
