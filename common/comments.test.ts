import { describe, expect, it } from 'vitest';
import { commentTrending, sortComments, topReactions, type RankedComment } from './comments';
import { REPORT_REASONS } from './reports';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const c = (id: number, over: Partial<RankedComment> = {}): RankedComment => ({
  id,
  commentedOn: ago(100 - id),
  pinnedOn: null,
  reactions: [],
  ...over,
});

describe('commentTrending', () => {
  it('sums 1000 × price / (minutes + 1) over the reactions of the comment and of its replies', () => {
    const comment = c(1, {
      reactions: [{ price: 15, reactedOn: ago(0) }],
      commentResponses: [{ reactions: [{ price: 30, reactedOn: ago(2) }] }],
    });
    expect(commentTrending(comment, NOW)).toBeCloseTo(15_000 + 10_000);
  });
});

describe('sortComments', () => {
  it('puts pins first (latest first), then trending, then newest', () => {
    const list = [
      c(1),
      c(2, { reactions: [{ price: 1, reactedOn: ago(5) }] }),
      c(3),
      c(4, { pinnedOn: ago(10) }),
      c(5, { pinnedOn: ago(1) }),
    ];
    expect(sortComments(list, NOW).map((x) => x.id)).toEqual([5, 4, 2, 3, 1]);
  });
});

describe('topReactions', () => {
  it('ranks reaction types by the money behind them, the earlier first on a tie', () => {
    expect(topReactions([])).toEqual([null, null]);
    expect(
      topReactions([
        { reactionType: 'B', price: 10, reactedOn: ago(1) },
        { reactionType: 'A', price: 10, reactedOn: ago(2) },
        { reactionType: 'C', price: 5, reactedOn: ago(3) },
        { reactionType: 'C', price: 4, reactedOn: ago(0) },
      ]),
    ).toEqual(['A', 'B']);
  });
});

describe('report reasons', () => {
  it('are the report categories, propaganda labelled Political Propaganda', () => {
    expect(REPORT_REASONS.map((r) => r.value)).toEqual([
      'personal-abuse',
      'advertisement',
      'propaganda',
      'hate-speech',
      'spam',
      'other',
    ]);
    expect(REPORT_REASONS.find((r) => r.value === 'propaganda')!.label).toBe('Political Propaganda');
  });
});
