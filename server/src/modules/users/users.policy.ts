import { policy } from '../../http/authorization';
import { forbidden } from '../../http/errors';

/*
 * The users domain's rules (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary). The profile and the
 * balance are the caller's own ('user'); anyone's public card is 'public'. The authorization policy test proves
 * another user is refused on every route that takes an object id.
 */
export const usersPolicy = policy('users', {
  /** Only one's own pictures can be one's face. */
  wearPicture: {
    // A profile write: refused to a suspended user (docs/product.md#suspension).
    base: 'member',
    allow: (actor, picture: { authorId: number }) => picture.authorId === actor?.id,
    refuse: () => forbidden('Only your own pictures can be your profile picture.'),
  },
});
