import { policy } from '../../http/authorization';
import { forbidden } from '../../http/errors';

/*
 * The comments' rules (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary). Anyone signed in and not
 * suspended may comment, reply, react and report ('member', docs/product.md#suspension); pinning belongs to the
 * picture's author, on the same base. What may be pinned (never a reply,
 * never twice) is validation, in comments.commands.ts.
 */
export const commentsPolicy = policy('comments', {
  pin: {
    base: 'member',
    allow: (actor, picture: { authorId: number }) => picture.authorId === actor?.id,
    refuse: () => forbidden("Only the picture's author can pin its comments."),
  },
});
