import { useSearchParams } from '../lib/router';
import { useVerifyEmail, type VerifyState } from '../features/auth/api/verify-email';

const TEXT: Record<VerifyState, string> = {
  verifying: 'Verifying email...',
  verified: 'Email verified!',
  failed: 'Email verification failed.',
};

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const state = useVerifyEmail(params);
  return (
    <section className="page">
      <div role="status">
        <h1>{TEXT[state]}</h1>
      </div>
    </section>
  );
}
