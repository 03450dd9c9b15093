import { itemName, itemOf } from './items';
import { formatMoney } from './money';
import type { NotificationTopic } from './notifications';
import { MAX_PUSH_BODY, MAX_PUSH_TITLE, type PushMessage, type PushType } from './push';

/*
 * What each event's push says and where it opens (docs/product.md#push; docs/decisions.md "Issue 27: which events
 * push"). Pure: the server builds the message in the event's transaction, the paths are the web client's routes.
 */

/** How long a user's CHAT pushes are apart at least: one tells of every message missed meanwhile. */
export const CHAT_PUSH_EVERY_MS = 10 * 60_000;

/**
 * The push type a notification topic queues, if any. Overtaking, system messages and moderation's notices push
 * nothing: no switch names them (a charity decision's system message pushes as CHARITY, from its own command).
 */
export function pushTypeOfTopic(topic: NotificationTopic): PushType | undefined {
  switch (topic) {
    case 'IMAGE_COMMENT':
    case 'COMMENT_REPLY':
      return 'COMMENT';
    case 'IMAGE_COMMENT_REACTED':
    case 'IMAGE_LIKE':
      return 'REACTION';
    case 'ITEM_SOLD':
      return 'ITEM_SOLD';
    case 'ITEM_BOUGHT':
      return 'ITEM_BOUGHT';
    case 'IMAGE_OVERTOOK':
    case 'SYSTEM_MESSAGE':
    case 'MODERATION_DECISION':
    case 'REPORT_OUTCOME':
    case 'APPEAL_DECIDED':
      return undefined;
  }
}

/** What a notification event's push needs: its figures, and its actor's name as it is now. */
export interface PushFacts {
  topic: NotificationTopic;
  actorName?: string | null;
  pictureId?: number | null;
  commentId?: number | null;
  amount?: number | null;
  item?: string | null;
}

/** Cut to `max` characters (code points), an ellipsis marking the cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function message(type: PushType, title: string, body: string, url: string): PushMessage {
  return { type, title: clip(title, MAX_PUSH_TITLE), body: clip(body, MAX_PUSH_BODY), url };
}

const nameOf = (name: string | null | undefined) => name ?? 'Someone';
const pictureUrl = (pictureId: number | null | undefined, commentId?: number | null) =>
  `/image/profile/${pictureId ?? ''}${commentId == null ? '' : `#${commentId}`}`;
const itemUrl = (item: string | null | undefined) => `/items-detail/${item ?? ''}/item-store`;
const itemOfFacts = (f: PushFacts, none: string) => (f.item ? itemName(f.item) : none);
const money = (f: PushFacts) => formatMoney(f.amount ?? 0);

/** A notification event's push, or undefined when its topic pushes nothing (pushTypeOfTopic). */
export function notificationPush(f: PushFacts): PushMessage | undefined {
  const who = nameOf(f.actorName);
  switch (f.topic) {
    case 'IMAGE_COMMENT':
      return message(
        'COMMENT',
        'New comment',
        `${who} commented on your picture.`,
        pictureUrl(f.pictureId, f.commentId),
      );
    case 'COMMENT_REPLY':
      return message('COMMENT', 'New reply', `${who} replied to your comment.`, pictureUrl(f.pictureId, f.commentId));
    case 'IMAGE_COMMENT_REACTED': {
      const emoji = f.item ? (itemOf(f.item)?.emoji ?? '') : '';
      const body = `${who} reacted ${emoji} to your comment with ${money(f)}.`.replace('  ', ' ');
      return message('REACTION', 'New reaction', body, pictureUrl(f.pictureId, f.commentId));
    }
    case 'IMAGE_LIKE':
      return message('REACTION', 'New like', `${who} put ${money(f)} on your picture.`, pictureUrl(f.pictureId));
    case 'ITEM_SOLD':
      return message(
        'ITEM_SOLD',
        'Item sold',
        `${who} bought your ${itemOfFacts(f, 'item')} for ${money(f)}.`,
        itemUrl(f.item),
      );
    case 'ITEM_BOUGHT':
      return message(
        'ITEM_BOUGHT',
        'Item bought',
        `${who} sold you ${itemOfFacts(f, 'an item')} for ${money(f)}.`,
        itemUrl(f.item),
      );
    case 'IMAGE_OVERTOOK':
    case 'SYSTEM_MESSAGE':
    case 'MODERATION_DECISION':
    case 'REPORT_OUTCOME':
    case 'APPEAL_DECIDED':
      return undefined;
  }
}

/** To a comment's author: the picture's author pinned it. */
export function pinPush(p: { actorName: string | null; pictureId: number; commentId: number }): PushMessage {
  return message(
    'PIN',
    'Comment pinned',
    `${nameOf(p.actorName)} pinned your comment.`,
    pictureUrl(p.pictureId, p.commentId),
  );
}

/** To a donation link's sender: an administrator's decision, in the words of its system message. */
export function charityPush(d: { approved: boolean; text: string }): PushMessage {
  return message('CHARITY', d.approved ? 'Donation link approved' : 'Donation link rejected', d.text, '/my-donations');
}

/** To each user whose goodwill shares a forwarding moved: one push per user per forwarding. */
export function goodwillPush(): PushMessage {
  return message(
    'GOODWILL',
    'Goodwill forwarded',
    'The goodwill your spending set aside was forwarded to its cause.',
    '/goodwill',
  );
}

/** To a user away from the chat: the message that found them away (later ones wait for the next CHAT push). */
export function chatPush(m: { senderName: string | null; text: string }): PushMessage {
  return message('CHAT', 'New messages in the chat', `${nameOf(m.senderName)}: ${m.text}`, '/chat');
}
