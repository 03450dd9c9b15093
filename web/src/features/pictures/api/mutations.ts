import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { profileQuery } from '../../../lib/session';
import { replacePicture } from '../lib/cache';
import type { Picture } from './types';

export interface FundInput {
  imageId: number;
  /** Cents. */
  amount: number;
  /** The client's view of its balance; the server decides on its own. */
  balance: number;
  /** One per user action, so a retried click is never charged twice. */
  actionKey: string;
}

export const fundPicture = ({ actionKey, ...body }: FundInput): Promise<Picture> =>
  api<Picture>('/api/payment/checkout-with-image-fund', { body, idempotencyKey: actionKey });

export function useFundPicture() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fundPicture,
    onSuccess: (picture, input) => {
      replacePicture(client, picture);
      // The live channel moves the balance too; this keeps it right while the socket is down.
      client.setQueryData(profileQuery.queryKey, (old) =>
        old ? { ...old, balance: Math.max(0, old.balance - input.amount) } : old,
      );
      void client.invalidateQueries({ queryKey: profileQuery.queryKey });
    },
  });
}

export interface UploadInput {
  file: Blob;
  fileName: string;
  /** Cents. */
  amount: number;
  actionKey: string;
}

export function uploadPicture({ file, fileName, amount, actionKey }: UploadInput): Promise<{ url: string }> {
  const form = new FormData();
  form.set('amount', String(amount));
  form.set('file', file, fileName);
  return api<{ url: string }>('/api/payment/checkout-with-image-upload', {
    method: 'POST',
    body: form,
    idempotencyKey: actionKey,
  });
}

export function setProfileImage(imageId: number): Promise<{ profileImageUrl: string }> {
  return api<{ profileImageUrl: string }>(`/api/user/profile?imageId=${imageId}`, { method: 'PUT' });
}

export function useSetProfileImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setProfileImage,
    onSuccess: ({ profileImageUrl }) => {
      client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, profileImageUrl } : old));
      void client.invalidateQueries({ queryKey: ['pictures'] });
      void client.invalidateQueries({ queryKey: ['user-info'] });
    },
  });
}
