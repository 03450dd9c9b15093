// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRoot } from '../../../lib/test-root';
import type { LootRow } from '../lib/rows';
import { LootRowView } from './LootRowView';

const mount = testRoot();

const LOOT = ['COMMON_LETTER_A', 'COMMON_LETTER_B', 'RARE_EMOJI_ROCKET', 'COMMON_LETTER_D', 'UNCOMMON_EMOJI_FIRE'];

function render(row: LootRow, onFinished = vi.fn()) {
  mount.render(<LootRowView row={row} onFinished={onFinished} />);
  return onFinished;
}

/** The items uncovered so far, by slot (undefined while covered). */
const slots = () =>
  [...mount.host().querySelectorAll<HTMLElement>('[data-testid="loot-slot"]')].map((s) => s.dataset.item);

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a row of an opened box', () => {
  it('shows five covered slots while the box is opening', () => {
    render({ id: 1, state: 'opening' });
    expect(slots()).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(mount.host().textContent).toContain('Opening...');
  });

  it('waits 2 s, then uncovers one item every 500 ms from the end each letter of openSequence names', () => {
    const onFinished = render({
      id: 7,
      state: 'opening',
      result: { lootSequence: LOOT, openSequence: 'RLLRL', lootFound: true },
    });
    advance(1_999);
    expect(slots().filter(Boolean)).toEqual([]);
    advance(1);
    expect(slots()).toEqual([undefined, undefined, undefined, undefined, 'UNCOMMON_EMOJI_FIRE']);
    advance(500);
    expect(slots()).toEqual(['COMMON_LETTER_A', undefined, undefined, undefined, 'UNCOMMON_EMOJI_FIRE']);
    advance(500);
    expect(slots()).toEqual(['COMMON_LETTER_A', 'COMMON_LETTER_B', undefined, undefined, 'UNCOMMON_EMOJI_FIRE']);
    advance(500);
    expect(slots()).toEqual([
      'COMMON_LETTER_A',
      'COMMON_LETTER_B',
      undefined,
      'COMMON_LETTER_D',
      'UNCOMMON_EMOJI_FIRE',
    ]);
    expect(onFinished).not.toHaveBeenCalled();
    advance(500);
    expect(slots()).toEqual(LOOT);
    expect(onFinished).toHaveBeenCalledWith(7);
  });

  it('celebrates a rare find as it appears and once the row is finished', () => {
    const row: LootRow = {
      id: 2,
      state: 'opening',
      result: { lootSequence: LOOT, openSequence: 'LLLLL', lootFound: true },
    };
    const onFinished = render(row);
    advance(3_000);
    expect(mount.host().querySelector('.loot-slot--find')?.getAttribute('data-item')).toBe('RARE_EMOJI_ROCKET');
    advance(1_000);
    expect(onFinished).toHaveBeenCalledOnce();
    render({ ...row, state: 'finished' }, onFinished);
    expect(mount.host().querySelector('[data-testid="loot-row"]')?.getAttribute('data-state')).toBe('finished');
    expect(mount.host().textContent).toContain('Rare find! 🚀 Rocket');
  });

  it('lists the items found when nothing rare came', () => {
    const loot = LOOT.filter((c) => c.startsWith('COMMON')).concat('COMMON_LETTER_E', 'COMMON_LETTER_F');
    render({ id: 3, state: 'finished', result: { lootSequence: loot, openSequence: 'LLLLL', lootFound: false } });
    expect(mount.host().textContent).toContain('You found Letter A, Letter B, Letter D, Letter E, Letter F.');
  });
});
