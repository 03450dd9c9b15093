import type { QueryClient } from '@tanstack/react-query';
import { profileQuery } from '../../users/api/profile';

/**
 * The one write of the cached balance (docs/ARCHITECTURE.md, "The wallet"): the profile the header, the bottom bar
 * and every price check read. Only this feature calls it: with a paid answer's balance, with the live `balance`
 * channel's value, after a top-up (a refetch).
 */
export function writeBalance(client: QueryClient, balance: number): void {
  client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, balance } : old));
}

/** A top-up ended in another tab: the balance is read again (the live channel moves it too, when it is up). */
export function refetchBalance(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: profileQuery.queryKey });
}
