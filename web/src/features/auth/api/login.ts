import type { LoginBody, SignInAnswer } from '../../../../../common/api/auth';
import { api } from '../../../lib/api';

/** Username and password; the answer sets the session cookie. */
export const login = (body: LoginBody): Promise<SignInAnswer> => api<SignInAnswer>('/api/auth/login/basic', { body });

/** Google's credential goes as a bearer token; a new Google user has no nickname yet and must choose one. */
export const loginWithGoogle = (credential: string): Promise<SignInAnswer> =>
  api<SignInAnswer>('/api/auth/login/google', {
    method: 'POST',
    body: {},
    headers: { authorization: `Bearer ${credential}` },
  });
