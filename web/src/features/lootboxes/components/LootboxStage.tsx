import { useReducer, useRef, useState, type ReactNode } from 'react';
import { newActionKey } from '../../../lib/api';
import { useProfile } from '../../users/api/profile';
import { useRecentLoot } from '../api/fairness';
import { MAX_LOOTBOXES } from '../../../../../common/lootboxes';
import { skipLootboxes, useGetLootbox, useOpenLootbox } from '../api/lootboxes';
import { emptyStage, previousLoot, stageReducer } from '../lib/rows';
import { Chest } from './Chest';
import { KeyIcon } from './KeyIcon';
import { LootRowView } from './LootRowView';
import { PreviousLoot } from './PreviousLoot';

export const BOX_FAILED = 'Failed to get loot box. Please try again.';
export const OPEN_FAILED = 'Failed to open loot box. Please try again.';

/**
 * The chest: a free box ('Get 0¢'), open and skip, the opened boxes' rows and the previous loot. `maxRows` is how
 * many boxes show at once (`?maxLootboxesDisplayed=`, default 1).
 */
export function LootboxStage({ maxRows, children }: { maxRows: number; children?: ReactNode }) {
  const { data: profile } = useProfile();
  const { data: recentLoot } = useRecentLoot();
  const getBox = useGetLootbox();
  const openBox = useOpenLootbox();
  const [stage, dispatch] = useReducer(stageReducer, emptyStage);
  const [error, setError] = useState<string | undefined>();
  const nextRow = useRef(1);

  const boxes = profile?.lootBoxCount ?? 0;
  const keys = profile?.keyCount ?? 0;
  const full = boxes >= MAX_LOOTBOXES;
  const canOpen = profile !== undefined && boxes > 0 && keys > 0 && !openBox.isPending;
  const opening = stage.rows.some((r) => !r.result);

  const get = async () => {
    setError(undefined);
    try {
      await getBox.run(newActionKey());
    } catch {
      setError(BOX_FAILED);
    }
  };

  const open = async () => {
    const id = nextRow.current++;
    setError(undefined);
    dispatch({ type: 'open', id, max: maxRows });
    try {
      dispatch({ type: 'resolved', id, result: await openBox.run(newActionKey()) });
    } catch {
      dispatch({ type: 'failed', id });
      setError(OPEN_FAILED);
    }
  };

  const skip = () => {
    dispatch({ type: 'skip' });
    // The server records nothing for a skip; a failed call changes nothing the user could see.
    void skipLootboxes().catch(() => {});
  };

  const hint = !profile
    ? undefined
    : boxes === 0
      ? 'Get a loot box first: it is free.'
      : keys === 0
        ? 'A key opens your box.'
        : undefined;

  return (
    <>
      <section className="lootbox-card lootbox-card--dark lootbox-stage" aria-label="Chest">
        <div className="lootbox-stage__chest">
          <Chest opening={opening} />
          <p className="lootbox-stage__count">
            <span data-testid="box-count">{profile ? boxes : '…'}</span> / {MAX_LOOTBOXES} boxes · <KeyIcon size={16} />{' '}
            {profile ? keys : '…'} {keys === 1 ? 'key' : 'keys'}
          </p>
        </div>
        <div className="lootbox-stage__actions">
          <button
            type="button"
            className="button lootbox-stage__get"
            aria-describedby={full ? 'lootbox-full' : undefined}
            disabled={!profile || full || getBox.isPending}
            onClick={() => void get()}
          >
            Get 0¢
          </button>
          <button
            type="button"
            className="button button--primary lootbox-stage__open"
            disabled={!canOpen}
            aria-describedby={hint ? 'lootbox-hint' : undefined}
            onClick={() => void open()}
          >
            {openBox.isPending ? 'Opening...' : 'Open'}
          </button>
          <button
            type="button"
            className="button lootbox-stage__skip"
            disabled={stage.rows.length === 0}
            onClick={skip}
          >
            Skip
          </button>
        </div>
        {full && (
          <p id="lootbox-full" className="lootbox-stage__hint">
            You hold {MAX_LOOTBOXES} boxes, the most there is: open one first.
          </p>
        )}
        {hint && (
          <p id="lootbox-hint" className="lootbox-stage__hint">
            {hint}{' '}
            {boxes > 0 && (
              <button
                type="button"
                className="lootbox-stage__link"
                onClick={() => document.getElementById('key-count')?.focus()}
              >
                Buy keys
              </button>
            )}
          </p>
        )}
        {error && (
          <p className="lootbox-stage__error" role="alert">
            {error}
          </p>
        )}
        {stage.rows.length > 0 && (
          <ol className="loot-rows" aria-label="Opened boxes">
            {stage.rows.map((row) => (
              <LootRowView key={row.id} row={row} onFinished={(id) => dispatch({ type: 'finished', id })} />
            ))}
          </ol>
        )}
      </section>
      {children}
      <PreviousLoot items={previousLoot(stage, recentLoot)} />
    </>
  );
}
