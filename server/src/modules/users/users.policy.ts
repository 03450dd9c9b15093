import type { SessionUser } from '../../http/auth';
import { forbidden, notFound } from '../../http/errors';

/*
 * Every ownership check of the users domain (docs/product.md#accounts). users.policy.test.ts proves another
 * user is refused on every route that takes an object id.
 */

/** Only one's own pictures can be one's face: an unknown picture is 404, another user's 403. */
export function authorizeProfileImage(user: SessionUser, picture: { authorId: number } | undefined): void {
  if (!picture) throw notFound('Image not found');
  if (picture.authorId !== user.id) throw forbidden('Only your own pictures can be your profile picture.');
}
