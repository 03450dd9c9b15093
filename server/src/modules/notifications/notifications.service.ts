import type { NotificationFilter, NotificationTopic } from '../../../../common/api/notifications';
import { DEFAULT_PAGE, MAX_PAGE, MAX_READ_IDS, PREVIEW_SIZE } from '../../../../common/notifications';
import { notificationPush, pushTypeOfTopic } from '../../../../common/push-messages';
import type { AppContext } from '../../context';
import { audience, type Work } from '../../db/unit-of-work';
import { fieldError } from '../../http/errors';
import { blockersOf } from '../blocks/blocks.service';
import { pushNames, queuePush } from '../push/push.service';
import { notificationsPolicy } from './notifications.policy';
import * as repo from './notifications.repository';

export type { NotificationTopic } from '../../../../common/api/notifications';

export interface NotificationEvent {
  /** Who is notified. */
  userId: number;
  topic: NotificationTopic;
  actorId?: number | null;
  pictureId?: number | null;
  commentId?: number | null;
  amount?: number | null;
  item?: string | null;
  message?: string | null;
}

/**
 * Records events in the caller's unit of work, so an event exists exactly when the change behind it committed, and
 * announces them (announceEvents).
 */
export async function recordEvents(work: Work, events: readonly NotificationEvent[], now: Date): Promise<void> {
  if (events.length === 0) return;
  await repo.insertEvents(work.tx, events);
  await announceEvents(work, events, now);
}

/**
 * Tells each notified user of recorded events (the market's SQL records its own): their sockets hear
 * `newNotification` (sent after the commit, once per user) and their devices get the event's push, queued in this
 * transaction (docs/product.md#push). Neither for an event whose actor the user blocked (docs/product.md#blocks:
 * their lists and counts leave such events out too).
 */
export async function announceEvents(work: Work, events: readonly NotificationEvent[], now: Date): Promise<void> {
  if (events.length === 0) return;
  const actors = events.flatMap((e) => (e.actorId == null ? [] : [e.actorId]));
  const blockers = actors.length === 0 ? new Map<number, Set<number>>() : await blockersOf(work.tx, actors);
  const told = events.filter((e) => e.actorId == null || !blockers.get(e.actorId)?.has(e.userId));
  const rung = new Set<number>();
  for (const e of told) {
    if (rung.has(e.userId)) continue;
    rung.add(e.userId);
    work.emit('notification', 'newNotification', { topic: e.topic }, audience.user(e.userId));
  }
  await pushEvents(work, told, now);
}

/** Each event's push (common/push-messages.ts: the topic's type and text), quoting its actor's name. */
async function pushEvents(work: Work, events: readonly NotificationEvent[], now: Date): Promise<void> {
  const pushing = events.filter((e) => pushTypeOfTopic(e.topic) !== undefined);
  if (pushing.length === 0) return;
  const names = await pushNames(
    work.tx,
    pushing.flatMap((e) => (e.actorId == null ? [] : [e.actorId])),
  );
  for (const e of pushing) {
    const message = notificationPush({ ...e, actorName: e.actorId == null ? null : (names.get(e.actorId) ?? null) });
    if (message) await queuePush(work, e.userId, message, now);
  }
}

/**
 * Content a moderator removed: its unseen notifications are read as they stand, so no bell counts what no list shows
 * (docs/product.md#moderation); every client reads its count again on the live `contentRemoved`. Restoring the
 * content does not unread them.
 */
export async function settleEventsAbout(
  work: Work,
  content: { pictureId: number } | { commentId: number },
): Promise<void> {
  await repo.settleEventsAbout(work.tx, content);
}

export async function unreadCount(ctx: AppContext, userId: number): Promise<number> {
  return repo.unreadCount(ctx.db, userId);
}

export async function listNotifications(
  ctx: AppContext,
  userId: number,
  q: { filter?: NotificationFilter; topic?: NotificationTopic; cursor?: string; limit?: string },
): Promise<repo.NotificationRow[]> {
  const limit = q.limit === undefined ? DEFAULT_PAGE : Number(q.limit);
  if (limit < 1 || limit > MAX_PAGE) throw fieldError('limit', `Ask for 1 to ${MAX_PAGE}.`);
  return repo.notificationsOf(ctx.db, userId, {
    filter: q.filter ?? 'ALL',
    topic: q.topic ?? null,
    before: q.cursor === undefined ? null : Number(q.cursor),
    limit,
  });
}

/** The newest notifications (the bubble's preview) and the unread count. */
export async function preview(
  ctx: AppContext,
  userId: number,
): Promise<{ notifications: repo.NotificationRow[]; unreadCount: number }> {
  const [rows, count] = await Promise.all([
    repo.notificationsOf(ctx.db, userId, { filter: 'ALL', topic: null, before: null, limit: PREVIEW_SIZE }),
    repo.unreadCount(ctx.db, userId),
  ]);
  return { notifications: rows, unreadCount: count };
}

/** Marks `id` and the semicolon-joined `unreadIds` seen, each with every older unseen event of its fold. */
export async function markRead(ctx: AppContext, userId: number, id: number, unreadIds = ''): Promise<void> {
  const ids = new Set([id]);
  for (const part of unreadIds.split(';')) {
    if (part === '') continue;
    const n = Number(part);
    if (!Number.isSafeInteger(n) || n < 1) throw fieldError('unreadIds', 'Notification ids joined by ";".');
    ids.add(n);
  }
  if (ids.size > MAX_READ_IDS) throw fieldError('unreadIds', `At most ${MAX_READ_IDS} ids at once.`);
  await ctx.transact(async (work) => {
    const wanted = [...ids];
    const owners = new Map((await repo.ownersOf(work.tx, wanted)).map((o) => [Number(o.id), Number(o.user_id)]));
    notificationsPolicy.authorize(
      { id: userId },
      'read',
      wanted.map((id) => owners.get(id)),
    );
    await repo.markRead(work.tx, userId, wanted);
    work.emit('notification', 'notificationsRead', { all: false }, audience.user(userId));
  });
}

export async function markAllRead(ctx: AppContext, userId: number): Promise<void> {
  await ctx.transact(async (work) => {
    await repo.markAllRead(work.tx, userId);
    work.emit('notification', 'notificationsRead', { all: true }, audience.user(userId));
  });
}
