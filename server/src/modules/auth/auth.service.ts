import { PASSWORD_MAX_LENGTH, USERNAME_PATTERN } from '../../../../common/constants';
import type { AppContext } from '../../context';
import type { SessionUser } from '../../http/auth';
import { fieldError } from '../../http/errors';
import type { CounterStore } from '../limits/limits.service';
import { credentialsOf, setUsernameIfNone, usernameTaken } from './auth.repository';
import { LoginThrottle } from './login-throttle';
import { passwordMatches } from './passwords';
import { TEXT, usernameProblem } from './rules';

/** Sign-in and the account's own name. Failed sign-ins are counted in the shared counters (Redis or PostgreSQL). */
export class AuthService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly ctx: AppContext,
    counters: CounterStore,
  ) {
    this.throttle = new LoginThrottle(counters, ctx.config.accountLoginLimit);
  }

  /**
   * Checks a username and password from the client address `ip`; the same answer whether the user exists or not.
   * Throws 429 when the account is throttled for that address.
   */
  async login(username: string, password: string, ip: string): Promise<{ userId: number }> {
    const plausible = USERNAME_PATTERN.test(username) && password.length <= PASSWORD_MAX_LENGTH;
    const attempt = plausible ? await this.throttle.begin(username, ip) : undefined;
    const creds = plausible ? await credentialsOf(this.ctx.db, username) : undefined;
    const ok = await passwordMatches(creds?.passwordHash, plausible ? password : '');
    if (!ok || !creds) throw fieldError('password', TEXT.wrongCredentials);
    if (attempt) await this.throttle.succeeded(attempt);
    return { userId: creds.id };
  }

  /** The address a new account signed up from is its usual one (not subject to strangers' failed logins). */
  async signedUpFrom(username: string, ip: string): Promise<void> {
    await this.throttle.remember(username, ip);
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
