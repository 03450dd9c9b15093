import { notFound } from '../../http/errors';

export const TEXT = { gone: 'Notification not found.' } as const;

/**
 * A user reads their own notifications only: any named id that is not theirs (another user's, or none at all)
 * answers 404, so whether it exists stays hidden, and nothing is marked.
 */
export function authorizeRead(
  owners: readonly { id: number | string; user_id: number | string }[],
  userId: number,
  wanted: readonly number[],
): void {
  const mine = new Set(owners.filter((o) => Number(o.user_id) === userId).map((o) => Number(o.id)));
  if (wanted.some((id) => !mine.has(id))) throw notFound(TEXT.gone);
}
