import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { AppContext } from '../../context';
import { HttpError, unauthorized } from '../../http/errors';

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

/** Errors that mean the token itself is bad (forged, expired, for someone else, garbled). */
const TOKEN_FAULTS = [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

const ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export const notConfigured = () =>
  new HttpError(404, { message: 'Google sign-in is not set up on this server. Sign in with a username instead.' });
const unavailable = () =>
  new HttpError(503, { message: 'Google sign-in is not reachable right now. Try again in a minute.' });

/**
 * Verifies Google ID tokens: signature against Google's published keys (fetched once, then cached and refreshed by
 * jose when a new key id appears), issuer, audience = our client id, and expiry against the app's clock.
 */
export function googleVerifier(ctx: AppContext): (token: string) => Promise<GoogleIdentity> {
  const google = ctx.config.google;
  if (!google) return () => Promise.reject(notConfigured());
  const keys = createRemoteJWKSet(new URL(google.jwksUrl));

  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: ISSUERS,
        audience: google.clientId,
        algorithms: ['RS256'],
        currentDate: ctx.now(),
        requiredClaims: ['sub', 'exp'],
      });
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw unauthorized();
      const email = typeof payload.email === 'string' ? payload.email : null;
      const verified = payload.email_verified === true || payload.email_verified === 'true';
      return { sub: payload.sub, email, emailVerified: email !== null && verified };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (TOKEN_FAULTS.some((fault) => err instanceof fault)) throw unauthorized();
      // Anything else means we could not get Google's keys: not the caller's fault, so not a 401.
      ctx.log.warn({ err }, 'google sign-in: key set unavailable');
      throw unavailable();
    }
  };
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header && /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : undefined;
}
