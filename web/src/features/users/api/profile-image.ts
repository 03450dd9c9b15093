import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileImageAnswer } from '../../../../../common/api/users';
import { api } from '../../../lib/api';
import { picturesRoot } from '../../pictures/api/pictures';
import { profileQuery } from './profile';
import { userInfoRoot } from './user-info';

/** One's own picture becomes one's face (PUT /api/user/profile?imageId=). */
export function setProfileImage(imageId: number): Promise<ProfileImageAnswer> {
  return api<ProfileImageAnswer>(`/api/user/profile?imageId=${imageId}`, { method: 'PUT' });
}

export function useSetProfileImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setProfileImage,
    onSuccess: ({ profileImageUrl }) => {
      client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, profileImageUrl } : old));
      // The face shows beside every picture of its author and in their profile's header.
      void client.invalidateQueries({ queryKey: picturesRoot });
      void client.invalidateQueries({ queryKey: userInfoRoot });
    },
  });
}
