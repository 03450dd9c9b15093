import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../lib/api';

type State = 'verifying' | 'verified' | 'failed';
const TEXT: Record<State, string> = {
  verifying: 'Verifying email...',
  verified: 'Email verified!',
  failed: 'Email verification failed.',
};

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const [state, setState] = useState<State>('verifying');
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const userId = Number(params.get('userId'));
    const secret = params.get('secret');
    if (!Number.isInteger(userId) || userId < 1 || !secret) {
      setState('failed');
      return;
    }
    api('/api/auth/verify-email', { body: { userId, secret } }).then(
      () => setState('verified'),
      () => setState('failed'),
    );
  }, [params]);

  return (
    <section className="page">
      <div role="status">
        <h1>{TEXT[state]}</h1>
      </div>
    </section>
  );
}
