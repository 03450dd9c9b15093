import { useEffect, useRef, useState } from 'react';
import { isLootFind, itemName, itemOf, type Item } from '../../../../../common/items';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { REVEAL_DELAY_MS, REVEAL_STEP_MS, uncoveredSlots } from '../lib/reveal';
import type { LootRow } from '../lib/rows';

const SLOTS = 5;

/**
 * One opened box: covered slots while the box opens, then, 2 s after the result, one item every 500 ms from the end
 * of the row its `openSequence` letter names. Rare or better finds are celebrated as they appear.
 */
export function LootRowView({ row, onFinished }: { row: LootRow; onFinished: (id: number) => void }) {
  const { result } = row;
  const [revealed, setRevealed] = useState(row.state === 'finished' ? SLOTS : 0);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    if (!result) return;
    const total = result.lootSequence.length;
    let count = 0;
    let timer = setTimeout(function step() {
      count += 1;
      setRevealed(count);
      if (count < total) timer = setTimeout(step, REVEAL_STEP_MS);
      else finished.current(row.id);
    }, REVEAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, row.id]);

  const loot = result?.lootSequence ?? [];
  const uncovered = result ? uncoveredSlots(result.openSequence, loot.length, revealed) : new Set<number>();
  const finds = loot.map((code) => itemOf(code)).filter((item): item is Item => item !== undefined && isLootFind(item));
  const done = row.state === 'finished';

  return (
    <li
      className={`loot-row${done && result?.lootFound ? ' loot-row--found' : ''}`}
      data-testid="loot-row"
      data-state={row.state}
    >
      <p className="loot-row__status">{done ? 'Finished' : result ? 'Revealing...' : 'Opening...'}</p>
      <ol className="loot-row__slots" aria-label="Loot">
        {Array.from({ length: SLOTS }, (_, slot) => {
          const code = loot[slot];
          const item = code ? itemOf(code) : undefined;
          const shown = code !== undefined && uncovered.has(slot);
          const find = shown && item !== undefined && isLootFind(item);
          return (
            <li
              key={slot}
              className={`loot-slot${shown ? ' loot-slot--shown' : ''}${find ? ' loot-slot--find' : ''}`}
              data-testid="loot-slot"
              data-item={shown ? code : undefined}
            >
              {shown ? (
                <>
                  <ItemIcon itemType={code} size={52} label={itemName(code)} />
                  {find && <span className="loot-slot__burst" aria-hidden="true" />}
                </>
              ) : (
                <span className="loot-slot__cover" aria-label="Not revealed yet" role="img">
                  ?
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {done && result?.lootFound && (
        <p className="loot-row__celebration" role="status">
          <span aria-hidden="true">★</span> Rare find! {finds.map((f) => `${f.emoji} ${f.name}`).join(', ')}
        </p>
      )}
      {done && !result?.lootFound && (
        <p className="loot-row__summary" role="status">
          You found {loot.map((code) => itemName(code)).join(', ')}.
        </p>
      )}
    </li>
  );
}
