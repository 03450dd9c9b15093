import { describe, expect, it } from 'vitest';
import { emptyStage, maxRowsOf, previousLoot, stageReducer, type Loot, type Stage, type StageAction } from './rows';

const result = (prefix: string): Loot => ({
  lootSequence: [1, 2, 3, 4, 5].map((n) => `${prefix}${n}`),
  openSequence: 'LLLLL',
  lootFound: false,
});
const run = (actions: StageAction[], from: Stage = emptyStage) => actions.reduce(stageReducer, from);
const openAndFinish = (id: number, max: number, prefix: string): StageAction[] => [
  { type: 'open', id, max },
  { type: 'resolved', id, result: result(prefix) },
  { type: 'finished', id },
];

describe('the rows of opened boxes', () => {
  it('show a row opening, then finished when its reveal ends', () => {
    let stage = run([{ type: 'open', id: 1, max: 1 }]);
    expect(stage.rows).toEqual([{ id: 1, state: 'opening' }]);
    stage = run([{ type: 'resolved', id: 1, result: result('a') }], stage);
    expect(stage.rows[0]!.state).toBe('opening');
    stage = run([{ type: 'finished', id: 1 }], stage);
    expect(stage.rows[0]!.state).toBe('finished');
  });

  it('remove the finished row when the next box opens, handing its items to the previous loot', () => {
    const stage = run([...openAndFinish(1, 3, 'a'), { type: 'open', id: 2, max: 3 }]);
    expect(stage.rows.map((r) => r.id)).toEqual([2]);
    expect(stage.previous).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('drop an unfinished row too when one box shows at a time', () => {
    const stage = run([
      { type: 'open', id: 1, max: 1 },
      { type: 'resolved', id: 1, result: result('a') },
      { type: 'open', id: 2, max: 1 },
    ]);
    expect(stage.rows.map((r) => r.id)).toEqual([2]);
    expect(stage.previous).toHaveLength(5);
  });

  it('keep unfinished rows up to maxLootboxesDisplayed, newest first, dropping the oldest', () => {
    const stage = run([
      { type: 'open', id: 1, max: 2 },
      { type: 'open', id: 2, max: 2 },
      { type: 'open', id: 3, max: 2 },
    ]);
    expect(stage.rows.map((r) => r.id)).toEqual([3, 2]);
  });

  it('remove a row whose opening failed, without loot', () => {
    const stage = run([
      { type: 'open', id: 1, max: 1 },
      { type: 'failed', id: 1 },
    ]);
    expect(stage).toEqual(emptyStage);
  });

  it('are cleared by skip, their items kept as previous loot', () => {
    const stage = run([
      { type: 'open', id: 1, max: 2 },
      { type: 'resolved', id: 1, result: result('a') },
      { type: 'open', id: 2, max: 2 },
      { type: 'skip' },
    ]);
    expect(stage.rows).toEqual([]);
    expect(stage.previous).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('still hand over the items of a box skipped before its result came', () => {
    const stage = run([
      { type: 'open', id: 1, max: 1 },
      { type: 'skip' },
      { type: 'resolved', id: 1, result: result('a') },
    ]);
    expect(stage.rows).toEqual([]);
    expect(stage.previous).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('keep the last 10 previous loot items, newest first, before what earlier visits found', () => {
    const stage = run([
      ...openAndFinish(1, 1, 'a'),
      ...openAndFinish(2, 1, 'b'),
      ...openAndFinish(3, 1, 'c'),
      { type: 'skip' },
    ]);
    expect(stage.previous).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'b1', 'b2', 'b3', 'b4', 'b5']);
    expect(
      previousLoot(run(openAndFinish(1, 1, 'a').concat({ type: 'skip' })), ['z1', 'z2', 'z3', 'z4', 'z5', 'z6', 'z7']),
    ).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'z1', 'z2', 'z3', 'z4', 'z5']);
  });
});

describe('maxLootboxesDisplayed', () => {
  it('is 1 by default and when it is not a whole number of at least 1', () => {
    for (const param of [null, '', 'abc', '-2', '1.5', '0']) expect(maxRowsOf(param, 10)).toBe(1);
  });

  it('takes a whole number, up to the boxes one may hold', () => {
    expect(maxRowsOf('3', 10)).toBe(3);
    expect(maxRowsOf('50', 10)).toBe(10);
  });
});
