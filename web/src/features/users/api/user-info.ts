import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '../../../../../common/api/users';
import { api } from '../../../lib/api';

export const fetchUserInfo = (userId: number): Promise<UserInfo> => api<UserInfo>(`/api/user/user-info/${userId}`);

export const userInfoRoot = ['user-info'] as const;

export const userInfoQuery = (userId: number) =>
  queryOptions({
    queryKey: [...userInfoRoot, userId] as const,
    queryFn: () => fetchUserInfo(userId),
    staleTime: 60_000,
    retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
  });

/** The name and face of any user, for their profile's header (GET /api/user/user-info/{userId}). */
export const useUserInfo = (userId: number) =>
  useQuery({ ...userInfoQuery(userId), enabled: Number.isSafeInteger(userId) && userId > 0 });
