import type { NicknameBody } from '../../../../../common/api/auth';
import type { UrlAnswer } from '../../../../../common/api/shared';
import { api } from '../../../lib/api';

/** A Google user's first step after signing up: the name others see; the answer names the page to continue on. */
export const setNickname = (body: NicknameBody): Promise<UrlAnswer> =>
  api<UrlAnswer>('/api/auth/set-nickname', { body });
