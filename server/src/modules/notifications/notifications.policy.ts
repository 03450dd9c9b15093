import { policy } from '../../http/authorization';
import { notFound } from '../../http/errors';

export const TEXT = { gone: 'Notification not found.' } as const;

/*
 * The notifications domain's rules (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary): a user reads
 * their own notifications only. Any named id that is not theirs (another user's, or none at all) answers 404, so
 * whether it exists stays hidden, and nothing is marked.
 */
export const notificationsPolicy = policy('notifications', {
  read: {
    allow: (actor, owners: readonly (number | undefined)[]) =>
      owners.every((owner) => owner !== undefined && owner === actor?.id),
    refuse: () => notFound(TEXT.gone),
  },
});
