import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import type { SessionUser } from '../../http/auth';
import { notFound, unauthorized } from '../../http/errors';
import { availableBalance } from '../../ledger/ledger';
import { faceUrl, imageUrl } from '../../storage/storage';
import { pictureAuthor } from '../pictures/pictures.service';
import { usersPolicy } from './users.policy';
import * as users from './users.repository';

/* The users domain as other modules see it: profiles and faces are read and set here. */

/** The signed-in user's own view of their account; reading it is what uses up "first login". */
export async function ownProfile(
  ctx: AppContext,
  user: SessionUser,
): Promise<{ row: users.ProfileRow; firstLogin: boolean }> {
  const db = ctx.reads.current();
  const row = await users.profileOf(db, user.id);
  if (!row) throw unauthorized(); // the account was deleted under a live session
  // Reading the profile is what "the first login" means to the client: the welcome popup shows once. While only the
  // replica answers (docs/scaling.md, "Read replica") it cannot be used up: it waits for a later visit.
  const onPrimary = db === ctx.db;
  const firstLogin = onPrimary && row.firstLogin && (await users.clearFirstLogin(ctx.db, user.id));
  return { row, firstLogin };
}

export async function userInfo(ctx: AppContext, userId: number): Promise<users.PublicInfo> {
  const row = await users.publicInfoOf(ctx.reads.lagTolerant(), userId);
  if (!row) throw notFound('No such user.');
  return row;
}

/** Makes one of the user's own pictures their face; every card of theirs shows it (on every instance). */
export async function setProfileImage(ctx: AppContext, user: SessionUser, pictureId: number): Promise<string> {
  const picture = await pictureAuthor(ctx, pictureId);
  if (!picture) throw notFound('Image not found');
  usersPolicy.authorize(user, 'wearPicture', picture);
  return ctx.transact(async (work) => {
    await users.setProfileImage(work.tx, user.id, pictureId);
    const face = (await users.profileImageKeyOf(work.tx, user.id))!;
    const profileImageUrl = imageUrl(face.key);
    work.emit('picture', 'author', {
      authorId: user.id,
      authorProfileImgId: pictureId,
      // As the wall's cards name it (pictures.presenter.ts): the narrowest WebP where there are variants.
      authorProfileUrl: faceUrl(face.key, face.variantWidths),
    });
    return profileImageUrl;
  });
}

/** A user's spendable balance, for the snapshot of their `balance` channel. */
export function balanceOf(exec: Executor, userId: number): Promise<number> {
  return availableBalance(exec, userId);
}
