import { isAdmin, policy } from '../../http/authorization';
import { forbidden, notFound } from '../../http/errors';

export const TEXT = {
  noDecision: 'Decision not found.',
  anotherAdmin: 'Another administrator must decide the appeal of your own decision.',
} as const;

/*
 * Moderation's rules (docs/product.md#moderation). Deciding reports is the admin rule. Only a decision's author may
 * appeal it: anyone else's call answers 404, so whether the decision exists stays hidden. An appeal goes to an admin
 * other than the one who decided, unless that one is the only admin.
 */
export const moderationPolicy = policy('moderation', {
  appeal: {
    allow: (actor, decision: { authorId: number } | undefined) =>
      decision !== undefined && decision.authorId === actor?.id,
    refuse: () => notFound(TEXT.noDecision),
  },
  decideAppeal: {
    allow: (actor, appeal: { decidedBy: number; anotherAdmin: boolean }) =>
      isAdmin(actor) && (appeal.decidedBy !== actor?.id || !appeal.anotherAdmin),
    refuse: () => forbidden(TEXT.anotherAdmin),
  },
});
