import { useQueryClient } from '@tanstack/react-query';
import type { FundAnswer, FundBody, UploadAnswer } from '../../../../../common/api/pictures';
import { api } from '../../../lib/api';
import { usePaidAction } from '../../wallet/api/usePaidAction';
import { replacePicture } from '../lib/cache';

/*
 * The two money actions on pictures, each a paid action (features/wallet/: the key, the 402 top-up, the balance).
 * They share a file on purpose: split in two, the bundler moves TanStack Query out of the entry chunk into a shared
 * one and the wall's first load grows by about 0.5 KB (bench/bundle/measure.ts).
 */

export const fundPicture = (body: FundBody, idempotencyKey: string): Promise<FundAnswer> =>
  api<FundAnswer>('/api/payment/checkout-with-image-fund', { body, idempotencyKey });

/** Funds a picture and writes the picture it answers into the wall's caches. */
export function useFundPicture() {
  const client = useQueryClient();
  return usePaidAction(fundPicture, {
    onPaid: ({ balance: _balance, ...picture }) => replacePicture(client, picture),
  });
}

/** POST /api/payment/checkout-with-image-upload is multipart (common/api/pictures.ts `UploadFields`). */
export interface UploadInput {
  file: Blob;
  fileName: string;
  /** Cents. */
  amount: number;
}

/** Answers the new picture's page. */
export function uploadPicture({ file, fileName, amount }: UploadInput, idempotencyKey: string): Promise<UploadAnswer> {
  const form = new FormData();
  form.set('amount', String(amount));
  form.set('file', file, fileName);
  return api<UploadAnswer>('/api/payment/checkout-with-image-upload', { method: 'POST', body: form, idempotencyKey });
}

/** Puts a picture on the wall at a price. */
export const useUploadPicture = () => usePaidAction(uploadPicture);
