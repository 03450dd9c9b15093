import type { RegisterBody } from '../../../../../common/api/auth';
import type { UrlAnswer } from '../../../../../common/api/shared';
import { api } from '../../../lib/api';

/** A new account; the answer sets the session cookie and names the page to continue on. */
export const register = (body: RegisterBody): Promise<UrlAnswer> => api<UrlAnswer>('/api/auth/register', { body });
