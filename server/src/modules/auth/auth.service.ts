import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PASSWORD_MAX_LENGTH, USERNAME_PATTERN } from '../../../../common/constants';
import type { FieldError } from '../../../../common/errors';
import type { AppContext } from '../../context';
import { badRequest, fieldError, tooManyRequests } from '../../http/errors';
import {
  credentialsOf,
  emailSecretOf,
  insertUser,
  markEmailVerified,
  setUsernameIfNone,
  userByGoogleSub,
  usernameTaken,
} from '../users/users.repository';
import type { GoogleIdentity } from './google';
import { LoginThrottle } from './login-throttle';
import { hashPassword, passwordMatches } from './passwords';
import { emailProblem, passwordProblem, TEXT, usernameProblem } from './rules';
import type { SessionUser } from './session';

const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface RegisterInput {
  username: string;
  password: string;
  email: string;
}

/** Sign-up, sign-in and the account's own settings. One instance per app (it holds the failed-login counts). */
export class AuthService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly ctx: AppContext) {
    this.throttle = new LoginThrottle(ctx.config.accountLoginLimit, FAILED_LOGIN_WINDOW_MS, ctx.now);
  }

  /**
   * Creates the account and its ledger accounts in one transaction, then mails the verification link. Every field
   * problem is reported at once, so the form can show them all.
   */
  async register(input: RegisterInput, siteUrl: string): Promise<{ userId: number }> {
    const email = input.email.trim();
    const problems: FieldError[] = [];
    const nameProblem =
      usernameProblem(input.username) ??
      ((await usernameTaken(this.ctx.db, input.username)) ? TEXT.usernameTaken : undefined);
    if (nameProblem) problems.push({ field: 'username', errorText: nameProblem });
    const pwProblem = passwordProblem(input.password);
    if (pwProblem) problems.push({ field: 'password', errorText: pwProblem });
    const mailProblem = emailProblem(email);
    if (mailProblem) problems.push({ field: 'email', errorText: mailProblem });
    if (problems.length > 0) throw badRequest(problems);

    // Hashing takes tens of milliseconds: do it before the transaction, not while holding it open.
    const passwordHash = await hashPassword(input.password);
    const secret = randomBytes(32).toString('base64url');
    const inserted = await this.ctx.transact(({ tx }) =>
      insertUser(tx, {
        username: input.username,
        email,
        passwordHash,
        emailSecretHash: sha256(secret),
      }),
    );
    if (!('id' in inserted)) throw fieldError('username', TEXT.usernameTaken); // lost a race for the name

    await this.sendVerification(inserted.id, email, secret, siteUrl);
    return { userId: inserted.id };
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

  /** Marks the email verified when the link's secret is right. Following the link again still succeeds. */
  async verifyEmail(userId: number, secret: string): Promise<{ message: string }> {
    const row = await emailSecretOf(this.ctx.db, userId);
    const expected = row?.secretHash ? Buffer.from(row.secretHash, 'hex') : undefined;
    const given = Buffer.from(sha256(secret), 'hex');
    if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw fieldError('secret', 'This verification link is not valid. Use the newest link we sent you.');
    }
    if (row.verified) return { message: 'Your email address is already verified.' };
    await markEmailVerified(this.ctx.db, userId);
    return { message: 'Email verified. Thank you!' };
  }

  /** Finds the account of a Google identity, creating it (without a username yet) on first sign-in. */
  async googleSignIn(identity: GoogleIdentity): Promise<{ userId: number; hasNickname: boolean }> {
    const existing = await userByGoogleSub(this.ctx.db, identity.sub);
    if (existing) return { userId: existing.id, hasNickname: existing.username !== null };
    const inserted = await this.ctx.transact(({ tx }) =>
      insertUser(tx, {
        username: null,
        email: identity.email,
        emailVerified: identity.emailVerified,
        googleSub: identity.sub,
      }),
    );
    if ('id' in inserted) return { userId: inserted.id, hasNickname: false };
    // Two first sign-ins raced; the other one created the account.
    const winner = await userByGoogleSub(this.ctx.db, identity.sub);
    if (!winner) throw new Error('google user vanished after a conflict');
    return { userId: winner.id, hasNickname: winner.username !== null };
  }

  private async sendVerification(userId: number, email: string, secret: string, siteUrl: string): Promise<void> {
    const link = `${siteUrl}/verify-email?userId=${userId}&secret=${encodeURIComponent(secret)}`;
    try {
      await this.ctx.mailer.send({
        to: email,
        subject: 'Confirm your email address',
        text: `Welcome to the wall!\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nIf you did not sign up, ignore this message.\n`,
      });
    } catch (err) {
      // The account exists and the user is signed in; a lost mail must not turn that into an error.
      this.ctx.log.error({ err, userId }, 'verification mail not sent');
    }
  }
}

/** PostgreSQL's unique_violation, wherever the driver wrapped it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
