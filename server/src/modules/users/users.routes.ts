import type { App, AppContext } from '../../context';
import { notFound, unauthorized } from '../../http/errors';
import { FieldErrorList, Message } from '../auth/auth.schemas';
import { requireUser } from '../auth/session';
import { presentProfile, presentUserInfo } from './users.presenter';
import { clearFirstLogin, profileOf, publicInfoOf } from './users.repository';
import { Profile, UserIdParams, UserInfo } from './users.schemas';

/** /api/user/*: the signed-in user's profile and the public card of any user. */
export async function userRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get('/api/user/profile', { schema: { response: { 200: Profile, 401: Message } } }, async (req) => {
    const user = requireUser(req);
    const row = await profileOf(ctx.db, user.id);
    if (!row) throw unauthorized(); // the account was deleted under a live session
    // Reading the profile is what "the first login" means to the client: the welcome popup shows once.
    const firstLogin = row.firstLogin && (await clearFirstLogin(ctx.db, user.id));
    return presentProfile(row, firstLogin);
  });

  app.get(
    '/api/user/user-info/:userId',
    { schema: { params: UserIdParams, response: { 200: UserInfo, 400: FieldErrorList, 404: Message } } },
    async (req) => {
      const row = await publicInfoOf(ctx.db, Number(req.params.userId));
      if (!row) throw notFound('No such user.');
      return presentUserInfo(row);
    },
  );
}
