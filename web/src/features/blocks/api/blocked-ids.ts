import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { BlockedUsers } from '../../../../../common/api/blocks';
import { api } from '../../../lib/api';
import { isLoggedIn, useLoggedIn } from '../../../lib/session';

/*
 * The users the signed-in user blocked (docs/product.md#blocks), GET /api/user/blocks: the server leaves their
 * content out of every list and live update; the client also drops what it already shows, and what a live handler
 * receives before the server knew (features/chat, features/comments read `isBlocked`).
 */

export const blockedQuery = queryOptions({
  queryKey: ['blocks'] as const,
  queryFn: () => api<BlockedUsers>('/api/user/blocks'),
  staleTime: 5 * 60_000,
});

/** The blocked list, fetched for a signed-in user only. */
export const useBlocked = () => useQuery({ ...blockedQuery, enabled: useLoggedIn() });

/** Whether the cached blocked list has this user (false while it is unknown). */
export function isBlocked(client: QueryClient, userId: number): boolean {
  if (!isLoggedIn()) return false;
  return client.getQueryData(blockedQuery.queryKey)?.some((b) => b.userId === userId) ?? false;
}
