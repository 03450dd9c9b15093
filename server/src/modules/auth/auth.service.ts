import { PASSWORD_MAX_LENGTH, USERNAME_PATTERN } from '../../../../common/constants';
import type { AppContext } from '../../context';
import type { SessionUser } from '../../http/auth';
import { fieldError, tooManyRequests } from '../../http/errors';
import { credentialsOf, setUsernameIfNone, usernameTaken } from './auth.repository';
import { LoginThrottle } from './login-throttle';
import { passwordMatches } from './passwords';
import { TEXT, usernameProblem } from './rules';

const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;

/** Sign-in and the account's own name. One instance per app (it holds the failed-login counts). */
export class AuthService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly ctx: AppContext) {
    this.throttle = new LoginThrottle(ctx.config.accountLoginLimit, FAILED_LOGIN_WINDOW_MS, ctx.now);
  }

  /** Checks a username and password; the same answer whether the user exists or not. */
  async login(username: string, password: string): Promise<{ userId: number }> {
    if (this.throttle.blocked(username)) throw tooManyRequests();
    const plausible = USERNAME_PATTERN.test(username) && password.length <= PASSWORD_MAX_LENGTH;
    const creds = plausible ? await credentialsOf(this.ctx.db, username) : undefined;
    const ok = await passwordMatches(creds?.passwordHash, plausible ? password : '');
    if (!ok || !creds) {
      if (plausible) this.throttle.fail(username);
      throw fieldError('password', TEXT.wrongCredentials);
    }
    this.throttle.succeed(username);
    return { userId: creds.id };
  }

  /** Gives an identity-provider user their first username. */
  async setNickname(user: SessionUser, nickname: string): Promise<void> {
    if (user.username !== null) throw fieldError('nickname', TEXT.nicknameAlreadySet);
    const problem =
      usernameProblem(nickname) ?? ((await usernameTaken(this.ctx.db, nickname)) ? TEXT.usernameTaken : undefined);
    if (problem) throw fieldError('nickname', problem);
    let set: boolean;
    try {
      set = await setUsernameIfNone(this.ctx.db, user.id, nickname);
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('nickname', TEXT.usernameTaken);
      throw err;
    }
    if (!set) throw fieldError('nickname', TEXT.nicknameAlreadySet);
  }
}

/** PostgreSQL's unique_violation, wherever the driver wrapped it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
