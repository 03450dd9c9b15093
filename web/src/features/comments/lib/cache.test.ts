import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../../../common/api/comments';
import { countComments, withComment } from './cache';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const at = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const comment = (id: number, over: Partial<Comment> = {}): Comment => ({
  id,
  pictureId: 1,
  responseTo: null,
  comment: `c${id}`,
  authorId: 1,
  authorName: 'a',
  authorProfileUrl: null,
  commentedOn: at(100 - id),
  isPinned: false,
  pinnedOn: null,
  reactions: [],
  firstReaction: null,
  secondReaction: null,
  commentResponses: [],
  ...over,
});

describe('withComment', () => {
  it('adds a new top-level comment in its place (newest first when nothing else differs)', () => {
    const list = [comment(2), comment(1)];
    expect(withComment(list, comment(3), NOW).map((c) => c.id)).toEqual([3, 2, 1]);
  });

  it('replaces a comment and re-orders: a pin moves it first', () => {
    const list = [comment(3), comment(2), comment(1)];
    const pinned = comment(1, { isPinned: true, pinnedOn: at(0) });
    expect(withComment(list, pinned, NOW).map((c) => c.id)).toEqual([1, 3, 2]);
  });

  it('puts a reply under its parent, once, oldest first', () => {
    const list = [comment(2), comment(1)];
    const reply = comment(5, { responseTo: 1 });
    const once = withComment(withComment(list, reply, NOW), reply, NOW);
    expect(once.find((c) => c.id === 1)!.commentResponses.map((r) => r.id)).toEqual([5]);
    expect(countComments(once)).toBe(3);
  });

  it('leaves the list as it was for a reply to a comment it does not hold', () => {
    const list = [comment(1)];
    expect(withComment(list, comment(9, { responseTo: 42 }), NOW)).toEqual(list);
  });
});
