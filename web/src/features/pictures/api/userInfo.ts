import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface UserInfo {
  username: string;
  profileImageUrl: string | null;
}

/** The name and face of any user, for their profile's header (GET /api/user/user-info/{userId}). */
export const useUserInfo = (userId: number) =>
  useQuery({
    queryKey: ['user-info', userId] as const,
    queryFn: () => api<UserInfo>(`/api/user/user-info/${userId}`),
    enabled: Number.isSafeInteger(userId) && userId > 0,
    staleTime: 60_000,
    retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
  });
