import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '../../../../../common/api/users';
import { api } from '../../../lib/api';
import { useLoggedIn } from '../../../lib/session';

export const fetchProfile = (): Promise<Profile> => api<Profile>('/api/user/profile');

export const profileQuery = queryOptions({
  queryKey: ['profile'] as const,
  queryFn: fetchProfile,
  staleTime: 60_000,
  retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
});

/** The signed-in user's profile; undefined while unknown or when logged out. */
export function useProfile() {
  const loggedIn = useLoggedIn();
  return useQuery({ ...profileQuery, enabled: loggedIn });
}

/**
 * The counters the live channels move (`keyCount`, `lootBoxCount`), written into the cached profile. The balance is
 * the wallet's alone (features/wallet/).
 */
export function useSetProfileField() {
  const client = useQueryClient();
  return (field: 'keyCount' | 'lootBoxCount', value: number) =>
    client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, [field]: value } : old));
}
