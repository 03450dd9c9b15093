import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { brandOf, type Tenant } from '../../../../common/brand';
import type { FieldError } from '../../../../common/errors';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { badRequest, fieldError } from '../../http/errors';
import { openUserAccounts } from '../../ledger/commands';
import type { Mail } from '../../mail/mailer';
import { deliver, queueMail } from '../../mail/outbox';
import {
  emailSecretOf,
  insertUser,
  useEmailSecret,
  userByGoogleSub,
  usernameTaken,
  type InsertResult,
  type NewUser,
} from './auth.repository';
import type { GoogleIdentity } from './google';
import { hashPassword } from './passwords';
import { emailProblem, passwordProblem, TEXT, usernameProblem } from './rules';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface RegisterInput {
  username: string;
  password: string;
  email: string;
}

/** A new account: the user row and their ledger accounts, in the caller's transaction. */
export async function createAccount(tx: Executor, user: NewUser): Promise<InsertResult> {
  const inserted = await insertUser(tx, user);
  if ('id' in inserted) await openUserAccounts(tx, inserted.id);
  return inserted;
}

/** Where a request came from, for the mails it causes: the base of their links, and the tenant they are from. */
export interface MailSite {
  /** http/tenant.ts `publicOrigin`: the tenant the request came to, whenever its host is a known one. */
  origin: string;
  tenant: Tenant;
}

/**
 * Creates the account and queues its verification mail in one transaction, then sends the mail (the outbox retries
 * it if that fails). Every field problem is reported at once, so the form can show them all.
 */
export async function register(ctx: AppContext, input: RegisterInput, site: MailSite): Promise<{ userId: number }> {
  const email = input.email.trim();
  const problems: FieldError[] = [];
  const nameProblem =
    usernameProblem(input.username) ?? ((await usernameTaken(ctx.db, input.username)) ? TEXT.usernameTaken : undefined);
  if (nameProblem) problems.push({ field: 'username', errorText: nameProblem });
  const pwProblem = passwordProblem(input.password);
  if (pwProblem) problems.push({ field: 'password', errorText: pwProblem });
  const mailProblem = emailProblem(email);
  if (mailProblem) problems.push({ field: 'email', errorText: mailProblem });
  if (problems.length > 0) throw badRequest(problems);

  // Hashing takes tens of milliseconds: do it before the transaction, not while holding it open.
  const passwordHash = await hashPassword(input.password);
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.config.emailVerifyHours * 3_600_000);
  const inserted = await ctx.transact(async ({ tx }) => {
    const account = await createAccount(tx, {
      username: input.username,
      email,
      passwordHash,
      emailSecretHash: sha256(secret),
      emailSecretExpiresAt: expiresAt,
    });
    if (!('id' in account)) return account;
    const mail = verificationMail(account.id, email, secret, site);
    return { id: account.id, mail: await queueMail(tx, mail, { now, expiresAt }) };
  });
  if (!('id' in inserted)) throw fieldError('username', TEXT.usernameTaken); // lost a race for the name

  // The account exists and the user is signed in; a mail that fails now is retried by the outbox, never an error.
  await deliver(ctx, inserted.mail);
  return { userId: inserted.id };
}

/** Finds the account of a Google identity, creating it (without a username yet) on first sign-in. */
export async function googleSignIn(
  ctx: AppContext,
  identity: GoogleIdentity,
): Promise<{ userId: number; hasNickname: boolean }> {
  const existing = await userByGoogleSub(ctx.db, identity.sub);
  if (existing) return { userId: existing.id, hasNickname: existing.username !== null };
  const inserted = await ctx.transact(({ tx }) =>
    createAccount(tx, {
      username: null,
      email: identity.email,
      emailVerified: identity.emailVerified,
      googleSub: identity.sub,
    }),
  );
  if ('id' in inserted) return { userId: inserted.id, hasNickname: false };
  // Two first sign-ins raced; the other one created the account.
  const winner = await userByGoogleSub(ctx.db, identity.sub);
  if (!winner) throw new Error('google user vanished after a conflict');
  return { userId: winner.id, hasNickname: winner.username !== null };
}

export const VERIFY_TEXT = {
  verified: 'Email verified. Thank you!',
  alreadyVerified: 'Your email address is already verified.',
  invalid: 'This verification link is not valid. Use the newest link we sent you.',
  expired: 'This verification link has expired.',
} as const;

/**
 * Marks the email verified when the link's secret is right and the link is neither used nor expired
 * (EMAIL_VERIFY_HOURS). A link works once: following it again answers "already verified" while the address is
 * verified, and "not valid" otherwise.
 */
export async function verifyEmail(ctx: AppContext, userId: number, secret: string): Promise<{ message: string }> {
  const row = await emailSecretOf(ctx.db, userId);
  const expected = row?.secretHash ? Buffer.from(row.secretHash, 'hex') : undefined;
  const given = Buffer.from(sha256(secret), 'hex');
  if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw fieldError('secret', VERIFY_TEXT.invalid);
  }
  if (row.verified) return { message: VERIFY_TEXT.alreadyVerified };
  if (row.expiresAt === null) throw fieldError('secret', VERIFY_TEXT.invalid); // used, then unverified again
  if (row.expiresAt.getTime() <= ctx.now().getTime()) throw fieldError('secret', VERIFY_TEXT.expired);
  if (await useEmailSecret(ctx.db, userId, row.secretHash!, ctx.now())) return { message: VERIFY_TEXT.verified };
  // Another click used it a moment ago (or it just ran out): answer as a second click would.
  const now = await emailSecretOf(ctx.db, userId);
  if (now?.verified) return { message: VERIFY_TEXT.alreadyVerified };
  throw fieldError('secret', VERIFY_TEXT.expired);
}

/** The verification mail, from the tenant the user signed up on (its brand, a link to its host). */
function verificationMail(userId: number, email: string, secret: string, site: MailSite): Mail {
  const link = `${site.origin}/verify-email?userId=${userId}&secret=${encodeURIComponent(secret)}`;
  const brand = brandOf(site.tenant).title;
  return {
    to: email,
    senderName: brand,
    subject: 'Confirm your email address',
    text: `Welcome to ${brand}!\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nIf you did not sign up, ignore this message.\n`,
  };
}
