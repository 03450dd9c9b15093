import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FundBody, Picture } from '../../../../../common/api/pictures';
import type { UrlAnswer } from '../../../../../common/api/shared';
import { api } from '../../../lib/api';
import { profileQuery } from '../../users/api/profile';
import { replacePicture } from '../lib/cache';

/*
 * The two money actions on pictures share a file on purpose: split in two, the bundler moves TanStack Query out of
 * the entry chunk into a shared one and the wall's first load grows by about 0.5 KB (bench/bundle/measure.ts).
 */

export type FundInput = FundBody & {
  /** One per user action, so a retried click is never charged twice. */
  actionKey: string;
};

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

/** POST /api/payment/checkout-with-image-upload is multipart (common/api/pictures.ts `UploadFields`). */
export interface UploadInput {
  file: Blob;
  fileName: string;
  /** Cents. */
  amount: number;
  actionKey: string;
}

/** Answers the new picture's page. */
export function uploadPicture({ file, fileName, amount, actionKey }: UploadInput): Promise<UrlAnswer> {
  const form = new FormData();
  form.set('amount', String(amount));
  form.set('file', file, fileName);
  return api<UrlAnswer>('/api/payment/checkout-with-image-upload', {
    method: 'POST',
    body: form,
    idempotencyKey: actionKey,
  });
}
