import {
  NotificationList,
  NotificationPreview,
  NotificationsQuery,
  ReadBody,
  ValueAnswer,
} from '../../../../common/api/notifications';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { presentNotification } from './notifications.presenter';
import { listNotifications, markAllRead, markRead, preview, unreadCount } from './notifications.service';
import { notificationsPolicy } from './notifications.policy';

/** The caller's notifications (docs/product.md#notifications). */
export async function notificationRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['notifications'];
  const signedIn = { 400: FieldErrors, 401: Message };

  app.get(
    '/api/user-notifications/unread-count',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'How many notifications are unread',
        operationId: 'getUnreadCount',
        tags,
        response: { 200: ValueAnswer, ...signedIn },
      },
    },
    async (req) => ({ value: await unreadCount(ctx, requireUser(req).id) }),
  );

  app.get(
    '/api/user-notifications/preview',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The newest notifications, for the bell',
        operationId: 'getNotificationPreview',
        tags,
        response: { 200: NotificationPreview, ...signedIn },
      },
    },
    async (req) => {
      const newest = await preview(ctx, requireUser(req).id);
      return { notifications: newest.notifications.map(presentNotification), unreadCount: newest.unreadCount };
    },
  );

  app.get(
    '/api/user-notifications',
    {
      config: { auth: 'user' },
      schema: {
        summary: "A page of the signed-in user's notifications",
        operationId: 'listNotifications',
        tags,
        querystring: NotificationsQuery,
        response: { 200: NotificationList, ...signedIn },
      },
    },
    async (req) => (await listNotifications(ctx, requireUser(req).id, req.query)).map(presentNotification),
  );

  app.post(
    '/api/user-notifications/read',
    {
      config: { auth: notificationsPolicy.rule('read') },
      schema: {
        summary: 'Mark notifications read',
        operationId: 'markNotificationsRead',
        tags,
        body: ReadBody,
        response: { 200: Message, ...signedIn, 404: Message },
      },
    },
    async (req) => {
      await markRead(ctx, requireUser(req).id, req.body.id, req.body.unreadIds);
      return { message: 'Marked as read.' };
    },
  );

  app.post(
    '/api/user-notifications/read-all',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Mark every notification read',
        operationId: 'markAllNotificationsRead',
        tags,
        response: { 200: Message, ...signedIn },
      },
    },
    async (req) => {
      await markAllRead(ctx, requireUser(req).id);
      return { message: 'Marked as read.' };
    },
  );
}
