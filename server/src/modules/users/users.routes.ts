import { FieldErrors, Message } from '../../../../common/api/shared';
import { Profile, ProfileImageAnswer, ProfileImageQuery, UserIdParams, UserInfo } from '../../../../common/api/users';
import { isSuspended } from '../../../../common/suspension';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { presentProfile, presentUserInfo } from './users.presenter';
import { balanceOf, ownProfile, setProfileImage, userInfo } from './users.service';
import { usersPolicy } from './users.policy';

/** /api/user/*: the signed-in user's profile and face, the public card of any user, and their live counters. */
export async function userRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['users'];

  app.get(
    '/api/user/profile',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's profile, balance and counts",
        operationId: 'getProfile',
        tags,
        response: { 200: Profile, 401: Message },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { row, firstLogin } = await ownProfile(ctx, user);
      // The suspension was read with the session (http/auth.ts): no query of its own.
      const suspended = isSuspended(user, ctx.now());
      return presentProfile(row, firstLogin, {
        suspended,
        until: user.suspendedForGood ? null : user.suspendedUntil,
      });
    },
  );

  app.get(
    '/api/user/user-info/:userId',
    {
      config: { auth: 'public' },
      schema: {
        summary: "Anyone's public card",
        operationId: 'getUserInfo',
        tags,
        params: UserIdParams,
        response: { 200: UserInfo, 400: FieldErrors, 404: Message },
      },
    },
    async (req) => presentUserInfo(await userInfo(ctx, Number(req.params.userId))),
  );

  // The API takes PUT or PATCH (docs/product.md#accounts); both do the same.
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/user/profile',
      config: { auth: usersPolicy.rule('wearPicture') },
      schema: {
        summary: "Make one of one's own pictures one's face",
        operationId: `${method === 'PUT' ? 'set' : 'patch'}ProfileImage`,
        tags,
        querystring: ProfileImageQuery,
        response: { 200: ProfileImageAnswer, 400: FieldErrors, 401: Message, 403: Message, 404: Message },
      },
      handler: async (req) => ({
        profileImageUrl: await setProfileImage(ctx, requireUser(req), Number(req.query.imageId)),
      }),
    });
  }

  // A socket that (re)subscribes to its balance starts from the current value (docs/product.md#live).
  ctx.live.snapshot('balance', 'update', async (userId) =>
    userId === null ? undefined : { value: await balanceOf(ctx.reads.current(), userId) },
  );
}
