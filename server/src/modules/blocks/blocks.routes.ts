import { BlockBody, BlockedUsers } from '../../../../common/api/blocks';
import { FieldErrors, Message } from '../../../../common/api/shared';
import { UserIdParams } from '../../../../common/api/users';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { presentBlocked } from './blocks.presenter';
import { blockedUsers, blockUser, unblockUser } from './blocks.service';

/**
 * Blocking a user (docs/product.md#blocks). Each call answers the caller's list as it now stands. 'user', not
 * 'member': a suspended user may still block someone (docs/decisions.md, "Issue 26: suspension guard, blocks,
 * blocked words").
 */
export async function blockRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['blocks'];
  const list = async (userId: number) => (await blockedUsers(ctx, userId)).map(presentBlocked);

  app.get(
    '/api/user/blocks',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The users the caller blocked, the latest first',
        operationId: 'listBlockedUsers',
        tags,
        response: { 200: BlockedUsers, 401: Message },
      },
    },
    async (req) => list(requireUser(req).id),
  );

  app.post(
    '/api/user/blocks',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Block a user: their comments, replies, chat messages and notifications are hidden from the caller',
        operationId: 'blockUser',
        tags,
        body: BlockBody,
        response: { 200: BlockedUsers, 400: FieldErrors, 401: Message, 404: Message },
      },
    },
    async (req) => {
      const userId = requireUser(req).id;
      await blockUser(ctx, userId, req.body.userId);
      return list(userId);
    },
  );

  app.delete(
    '/api/user/blocks/:userId',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Undo a block',
        operationId: 'unblockUser',
        tags,
        params: UserIdParams,
        response: { 200: BlockedUsers, 400: FieldErrors, 401: Message },
      },
    },
    async (req) => {
      const userId = requireUser(req).id;
      await unblockUser(ctx, userId, Number(req.params.userId));
      return list(userId);
    },
  );
}
