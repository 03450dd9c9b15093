import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TOPICS } from './notifications';
import { MAX_PUSH_BODY, MAX_PUSH_TITLE } from './push';
import {
  charityPush,
  chatPush,
  clip,
  goodwillPush,
  notificationPush,
  pinPush,
  pushTypeOfTopic,
  type PushFacts,
} from './push-messages';

describe('which notification topics push', () => {
  it.each([
    ['IMAGE_COMMENT', 'COMMENT'],
    ['COMMENT_REPLY', 'COMMENT'],
    ['IMAGE_COMMENT_REACTED', 'REACTION'],
    ['IMAGE_LIKE', 'REACTION'],
    ['ITEM_SOLD', 'ITEM_SOLD'],
    ['ITEM_BOUGHT', 'ITEM_BOUGHT'],
    ['IMAGE_OVERTOOK', undefined],
    ['SYSTEM_MESSAGE', undefined],
    ['MODERATION_DECISION', undefined],
    ['REPORT_OUTCOME', undefined],
    ['APPEAL_DECIDED', undefined],
  ] as const)('%s → %s', (topic, type) => {
    expect(pushTypeOfTopic(topic)).toBe(type);
  });

  it('builds a message exactly for the topics that have a type, of that type', () => {
    for (const topic of NOTIFICATION_TOPICS) {
      expect(notificationPush({ topic })?.type).toBe(pushTypeOfTopic(topic));
    }
  });
});

describe("a notification's push", () => {
  const facts = (f: Partial<PushFacts> & Pick<PushFacts, 'topic'>): PushFacts => ({
    actorName: 'ann',
    pictureId: 3,
    commentId: 7,
    amount: 150,
    item: 'UNCOMMON_EMOJI_FIRE',
    ...f,
  });

  it.each([
    ['IMAGE_COMMENT', 'New comment', 'ann commented on your picture.', '/image/profile/3#7'],
    ['COMMENT_REPLY', 'New reply', 'ann replied to your comment.', '/image/profile/3#7'],
    ['IMAGE_COMMENT_REACTED', 'New reaction', 'ann reacted 🔥 to your comment with $1.50.', '/image/profile/3#7'],
    ['IMAGE_LIKE', 'New like', 'ann put $1.50 on your picture.', '/image/profile/3'],
    ['ITEM_SOLD', 'Item sold', 'ann bought your Fire for $1.50.', '/items-detail/UNCOMMON_EMOJI_FIRE/item-store'],
    ['ITEM_BOUGHT', 'Item bought', 'ann sold you Fire for $1.50.', '/items-detail/UNCOMMON_EMOJI_FIRE/item-store'],
  ] as const)('%s: %s, "%s", %s', (topic, title, body, url) => {
    expect(notificationPush(facts({ topic }))).toEqual({ type: pushTypeOfTopic(topic), title, body, url });
  });

  it('names someone when the actor has no name, and an item when none is named', () => {
    expect(notificationPush(facts({ topic: 'ITEM_SOLD', actorName: null, item: null }))?.body).toBe(
      'Someone bought your item for $1.50.',
    );
    expect(notificationPush(facts({ topic: 'ITEM_BOUGHT', item: null }))?.body).toBe('ann sold you an item for $1.50.');
    expect(notificationPush(facts({ topic: 'IMAGE_COMMENT_REACTED', item: null }))?.body).toBe(
      'ann reacted to your comment with $1.50.',
    );
  });
});

describe('the other pushes', () => {
  it('a pin opens the comment', () => {
    expect(pinPush({ actorName: 'bo', pictureId: 4, commentId: 9 })).toEqual({
      type: 'PIN',
      title: 'Comment pinned',
      body: 'bo pinned your comment.',
      url: '/image/profile/4#9',
    });
  });

  it("a charity decision carries its system message's words and opens /my-donations", () => {
    expect(charityPush({ approved: true, text: 'Approved.' })).toEqual({
      type: 'CHARITY',
      title: 'Donation link approved',
      body: 'Approved.',
      url: '/my-donations',
    });
    expect(charityPush({ approved: false, text: 'No.' }).title).toBe('Donation link rejected');
  });

  it('goodwill opens /goodwill', () => {
    expect(goodwillPush()).toMatchObject({ type: 'GOODWILL', title: 'Goodwill forwarded', url: '/goodwill' });
  });

  it('a chat push quotes the message that found the user away and opens /chat', () => {
    expect(chatPush({ senderName: 'cy', text: 'hello' })).toEqual({
      type: 'CHAT',
      title: 'New messages in the chat',
      body: 'cy: hello',
      url: '/chat',
    });
  });

  it('keeps title and body within the limits a push service takes', () => {
    const long = chatPush({ senderName: 'x'.repeat(500), text: '😀'.repeat(500) });
    expect([...long.body]).toHaveLength(MAX_PUSH_BODY);
    expect(long.body.endsWith('…')).toBe(true);
    expect([...charityPush({ approved: true, text: 'y'.repeat(1000) }).body]).toHaveLength(MAX_PUSH_BODY);
    expect(clip('z'.repeat(MAX_PUSH_TITLE + 5), MAX_PUSH_TITLE)).toHaveLength(MAX_PUSH_TITLE);
    expect(clip('short', MAX_PUSH_TITLE)).toBe('short');
  });
});
