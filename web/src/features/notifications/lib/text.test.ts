import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../../../common/api/notifications';
import type { NotificationTopic } from '../../../../../common/notifications';
import { linkOf, textOf } from './text';

const n = (topic: NotificationTopic, more: Partial<Notification> = {}): Notification => ({
  id: 9,
  b: { topic, seen: false, createdOn: '2026-04-01T12:00:00.000Z' },
  actorId: 3,
  username: 'ann',
  profileUrl: null,
  message: null,
  commentId: 7,
  pictureId: 3,
  amount: 250,
  item: 'UNCOMMON_EMOJI_FIRE',
  multiplicity: 1,
  uniqueActors: 1,
  ...more,
});

describe('where a notification goes (docs/product.md#notifications)', () => {
  it.each([
    ['ITEM_SOLD', '/items-detail/UNCOMMON_EMOJI_FIRE/item-store'],
    ['ITEM_BOUGHT', '/items-detail/UNCOMMON_EMOJI_FIRE/item-store'],
    ['IMAGE_COMMENT', '/image/profile/3#7'],
    ['COMMENT_REPLY', '/image/profile/3#7'],
    ['IMAGE_COMMENT_REACTED', '/image/profile/3#7'],
    ['IMAGE_OVERTOOK', '/?index=250'],
    ['IMAGE_LIKE', '/image/profile/3'],
  ] as const)('%s → %s', (topic, link) => {
    expect(linkOf(n(topic))).toBe(link);
  });
});

describe('what a notification says', () => {
  it('names the latest actor, the others and how many times', () => {
    expect(textOf(n('IMAGE_COMMENT'))).toBe('ann commented on your picture');
    expect(textOf(n('IMAGE_COMMENT', { multiplicity: 4, uniqueActors: 3 }))).toBe(
      'ann and 2 others commented on your picture (4 times)',
    );
    expect(textOf(n('IMAGE_LIKE', { multiplicity: 2, uniqueActors: 2 }))).toBe(
      'ann and 1 other put $2.50 on your picture (2 times)',
    );
    expect(textOf(n('SYSTEM_MESSAGE', { message: 'Your link was approved.' }))).toBe('Your link was approved.');
  });
});

describe('a kind this client does not know yet (docs/product.md#moderation-screens)', () => {
  const unknown = (topic: string, message: string | null) => n(topic as NotificationTopic, { message });

  it("links a decision on one's content to /moderation and a report's outcome to the public log", () => {
    expect(linkOf(unknown('MODERATION_DECISION', null))).toBe('/moderation');
    expect(linkOf(unknown('APPEAL_DECIDED', null))).toBe('/moderation');
    expect(linkOf(unknown('REPORT_OUTCOME', null))).toBe('/moderation-log');
    expect(linkOf(unknown('SOMETHING_NEW', null))).toBe('/notifications');
    expect(linkOf(unknown('MODERATION_SUSPENSION_ENDED', null))).toBe('/moderation');
    expect(linkOf(unknown('REPORT_WITHDRAWN', null))).toBe('/moderation-log');
  });

  it('shows its message, or a line that still makes sense', () => {
    expect(textOf(unknown('MODERATION_DECISION', 'Your comment was removed: Spam.'))).toBe(
      'Your comment was removed: Spam.',
    );
    expect(textOf(unknown('MODERATION_DECISION', null))).toBe('A moderator made a decision. Open it to read more.');
    expect(textOf(unknown('MODERATION_SUSPENSION_ENDED', null))).toBe(
      'A moderator made a decision. Open it to read more.',
    );
  });
});
