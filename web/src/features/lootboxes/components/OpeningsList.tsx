import { useState } from 'react';
import type { Opening } from '../../../../../common/api/lootboxes';
import { itemName } from '../../../../../common/items';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useFairnessFollowsOpenings, useOpenings } from '../api/fairness';
import { verifyOpening, type Verdict } from '../lib/verify';

type Check = Verdict | 'checking';

/** The user's openings, newest first; each one whose seed is revealed can be recomputed here. */
export function OpeningsList() {
  const { openings, isPending, isError, hasMore, loadMore, loadingMore } = useOpenings();
  useFairnessFollowsOpenings();
  const [checks, setChecks] = useState<Record<number, Check>>({});
  const revealed = openings.filter((o) => o.serverSeed !== null);

  const verify = async (opening: Opening) => {
    setChecks((c) => ({ ...c, [opening.id]: 'checking' }));
    const verdict = await verifyOpening(opening);
    setChecks((c) => ({ ...c, [opening.id]: verdict }));
  };

  return (
    <section className="lootbox-card" aria-labelledby="openings-title">
      <div className="opening__head">
        <h2 id="openings-title">Your openings</h2>
        {revealed.length > 1 && (
          <button
            type="button"
            className="button opening__verify"
            onClick={() => void Promise.all(revealed.map((o) => verify(o)))}
          >
            Verify all revealed
          </button>
        )}
      </div>
      {isPending ? (
        <p className="loading">Loading...</p>
      ) : isError ? (
        <p className="form-error" role="alert">
          The openings could not be loaded.
        </p>
      ) : openings.length === 0 ? (
        <p className="muted">No openings yet.</p>
      ) : (
        <ol className="openings">
          {openings.map((o) => (
            <OpeningRow key={o.id} opening={o} check={checks[o.id]} onVerify={() => void verify(o)} />
          ))}
        </ol>
      )}
      {hasMore && (
        <button type="button" className="button" disabled={loadingMore} onClick={loadMore}>
          {loadingMore ? 'Loading...' : 'Show older openings'}
        </button>
      )}
    </section>
  );
}

function OpeningRow({ opening, check, onVerify }: { opening: Opening; check?: Check; onVerify: () => void }) {
  return (
    <li className="opening" data-testid="opening" data-nonce={opening.nonce}>
      <div className="opening__head">
        <span className="opening__nonce">Nonce {opening.nonce}</span>
        <span className="muted">
          <RelativeTime at={opening.openedOn} />
        </span>
        {opening.serverSeed ? (
          <button
            type="button"
            className="button opening__verify"
            disabled={check === 'checking'}
            aria-label={`Verify the opening of nonce ${opening.nonce}`}
            onClick={onVerify}
          >
            Verify
          </button>
        ) : (
          <span className="muted opening__verify">Rotate the server seed to verify</span>
        )}
      </div>
      <ul className="opening__items" aria-label="Items found">
        {opening.lootSequence.map((code, i) => (
          <li key={i}>
            <ItemIcon itemType={code} size={36} label={itemName(code)} />
          </li>
        ))}
      </ul>
      {check !== undefined && (
        <p
          className={`opening__verdict${check === 'checking' ? '' : check.ok ? ' opening__verdict--ok' : ' opening__verdict--bad'}`}
          role="status"
          data-testid="verdict"
        >
          {check === 'checking' ? 'Checking...' : check.ok ? '✓ Verified' : `✗ Not verified: ${check.reason}`}
        </p>
      )}
      <dl className="opening__details">
        <div>
          <dt>Client seed</dt>
          <dd className="hex">{opening.clientSeed}</dd>
        </div>
        <div>
          <dt>Seed hash</dt>
          <dd className="hex">{opening.serverSeedHash}</dd>
        </div>
        <div>
          <dt>Server seed</dt>
          <dd className="hex">{opening.serverSeed ?? 'Hidden while in use'}</dd>
        </div>
        <div>
          <dt>Reveal order</dt>
          <dd className="hex">{opening.openSequence}</dd>
        </div>
      </dl>
    </li>
  );
}
