import { useEffect, useRef, useState } from 'react';
import type { VerifyEmailBody } from '../../../../../common/api/auth';
import type { Message } from '../../../../../common/api/shared';
import { api } from '../../../lib/api';

export const verifyEmail = (body: VerifyEmailBody): Promise<Message> =>
  api<Message>('/api/auth/verify-email', { body });

export type VerifyState = 'verifying' | 'verified' | 'failed';

/** Sends the link's `userId` and `secret` once, however often the effect runs, and follows the answer. */
export function useVerifyEmail(params: URLSearchParams): VerifyState {
  const [state, setState] = useState<VerifyState>('verifying');
  const sent = useRef(false);

  const userId = Number(params.get('userId'));
  const secret = params.get('secret');
  const valid = Number.isInteger(userId) && userId >= 1 && secret !== null && secret !== '';

  useEffect(() => {
    if (sent.current || !valid || !secret) return;
    sent.current = true;
    // As digits: the schema takes the id as text so that no number like 1e400 slips through (common/api/auth.ts).
    verifyEmail({ userId: String(userId), secret }).then(
      () => setState('verified'),
      () => setState('failed'),
    );
  }, [valid, userId, secret]);

  return valid ? state : 'failed';
}
