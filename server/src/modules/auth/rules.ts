import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../../../../common/constants';

/** The rules of registration and nickname fields; each returns the text to show, or undefined when fine. */

export const TEXT = {
  usernameMissing: 'Choose a username.',
  usernameMalformed: 'Use 3 to 20 letters, digits or underscores.',
  usernameTaken: 'This username is already taken.',
  passwordShort: `Use at least ${PASSWORD_MIN_LENGTH} characters, with at least one letter and one digit.`,
  passwordLong: `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
  passwordWeak: 'Use at least one letter and one digit.',
  emailInvalid: 'Enter a valid email address.',
  wrongCredentials: 'Wrong username or password.',
  nicknameAlreadySet: 'You already have a nickname.',
} as const;

export function usernameProblem(name: string): string | undefined {
  if (name.length === 0) return TEXT.usernameMissing;
  if (!USERNAME_PATTERN.test(name)) return TEXT.usernameMalformed;
  return undefined;
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return TEXT.passwordShort;
  if (password.length > PASSWORD_MAX_LENGTH) return TEXT.passwordLong;
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return TEXT.passwordWeak;
  return undefined;
}

// Deliberately loose: one @, no spaces, a dot in the domain. The verification mail is the real test.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function emailProblem(email: string): string | undefined {
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return TEXT.emailInvalid;
  return undefined;
}

/**
 * Where to send the browser after signing up: the page it came from, if that is a path on this site. Anything
 * else would make us an open redirect, so it becomes '/': another origin ('https://…', '//evil.example',
 * '/\\evil.example'), a scheme ('javascript:…'), control characters or spaces (browsers drop tabs and newlines, so
 * '/\t/evil.example' is '//evil.example' to them), dot segments that collapse into '//' ('/.//evil.example'), and
 * encoded slashes or backslashes in the path ('/%2F%2Fevil.example'), which a client that decodes the path once
 * more would follow off the site.
 */
export function sameSitePath(currentPath: string | undefined): string {
  if (!currentPath || currentPath.length > 2048 || !currentPath.startsWith('/')) return '/';
  if (currentPath.includes('\\') || hasControlOrSpace(currentPath)) return '/';
  let url: URL;
  try {
    url = new URL(currentPath, 'http://same.site');
  } catch {
    return '/';
  }
  if (url.origin !== 'http://same.site') return '/';
  const path = url.pathname;
  // After normalisation, the answer must still start with exactly one slash, and so must its decoded path.
  if (!path.startsWith('/') || path.startsWith('//') || /%(2f|5c)/i.test(path)) return '/';
  return `${path}${url.search}${url.hash}`;
}

const hasControlOrSpace = (s: string) => [...s].some((ch) => ch <= ' ' || ch === '\x7f');
