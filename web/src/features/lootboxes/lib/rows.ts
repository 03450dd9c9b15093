import type { LootboxResult } from '../../../../../common/api/lootboxes';

/** What a row's reveal shows: the result of an opening (docs/product.md#lootboxes). */
export type Loot = Pick<LootboxResult, 'lootSequence' | 'openSequence' | 'lootFound'>;

/** The last loot items the page keeps (docs/product.md#lootboxes). */
export const PREVIOUS_LOOT_KEPT = 10;

/** A box on screen: opening (waiting for its result, then revealing), then finished when the reveal ends. */
export interface LootRow {
  id: number;
  state: 'opening' | 'finished';
  result?: Loot;
}

export interface Stage {
  /** Newest first. */
  rows: LootRow[];
  /** Items of the rows that left the screen this visit, newest first. */
  previous: string[];
}

export type StageAction =
  | { type: 'open'; id: number; max: number }
  | { type: 'resolved'; id: number; result: Loot }
  | { type: 'failed'; id: number }
  | { type: 'finished'; id: number }
  | { type: 'skip' };

export const emptyStage: Stage = { rows: [], previous: [] };

/** A row leaving the screen hands its items to the previous loot. */
function leave(previous: string[], leaving: LootRow[]): string[] {
  const items = leaving.flatMap((r) => r.result?.lootSequence ?? []);
  return items.length ? [...items, ...previous].slice(0, PREVIOUS_LOOT_KEPT) : previous;
}

/**
 * docs/product.md#lootboxes: opening the next box removes the finished rows; when one box shows at a time the unfinished
 * row goes too; skip clears the rows. At most `max` rows show (the `maxLootboxesDisplayed` query), the oldest going.
 */
export function stageReducer(stage: Stage, action: StageAction): Stage {
  switch (action.type) {
    case 'open': {
      const max = Math.max(1, action.max);
      const staying = max === 1 ? [] : stage.rows.filter((r) => r.state !== 'finished').slice(0, max - 1);
      const leaving = stage.rows.filter((r) => !staying.includes(r));
      return { rows: [{ id: action.id, state: 'opening' }, ...staying], previous: leave(stage.previous, leaving) };
    }
    case 'resolved': {
      // A row skipped or dropped before its result came still hands its items over.
      if (!stage.rows.some((r) => r.id === action.id)) {
        return {
          ...stage,
          previous: leave(stage.previous, [{ id: action.id, state: 'finished', result: action.result }]),
        };
      }
      return { ...stage, rows: stage.rows.map((r) => (r.id === action.id ? { ...r, result: action.result } : r)) };
    }
    case 'failed':
      return { ...stage, rows: stage.rows.filter((r) => r.id !== action.id) };
    case 'finished':
      return {
        ...stage,
        rows: stage.rows.map((r) => (r.id === action.id && r.result ? { ...r, state: 'finished' } : r)),
      };
    case 'skip':
      return { rows: [], previous: leave(stage.previous, stage.rows) };
  }
}

/** What `?maxLootboxesDisplayed=` asks for: a whole number of at least 1 (default 1), at most the boxes one may hold. */
export function maxRowsOf(param: string | null, limit: number): number {
  if (param === null || !/^\s*\d+\s*$/.test(param)) return 1;
  return Math.min(limit, Math.max(1, Number(param)));
}

/** The previous loot shown: this visit's, then what the last openings before the visit found. */
export const previousLoot = (stage: Stage, before: readonly string[] = []): string[] =>
  [...stage.previous, ...before].slice(0, PREVIOUS_LOOT_KEPT);
