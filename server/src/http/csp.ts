/**
 * The Content-Security-Policy of every answer (helmet), and the one of the admin console's page (docs/product.md#admin, docs/decisions.md "The admin console's free fetch and the CSP").
 *
 * The admin console's Free Fetch runs in the admin's browser (never through the server: no server-side request
 * forgery), to whatever URL the admin types. The policy of a document governs its fetches, so the HTML of
 * /admin-console alone carries a policy whose `connect-src` also allows any `https:` and `http:` URL. Everything
 * else stays exactly as locked as on every other page: scripts only from the site (and Google's sign-in client),
 * no plugins (`object-src 'none'`), frames and form targets as before, `base-uri 'self'`, no framing of the site.
 * The browser keeps a document's policy across client-side navigation, so the web client loads /admin-console as a
 * full document.
 */

import { BOOT_SCRIPT_HASH } from './page-boot';

type Directives = Record<string, string[] | null>;

const directives: Directives = {
  defaultSrc: ["'self'"],
  // The painted wall's boot script, inline, by its hash (http/page-boot.ts).
  scriptSrc: ["'self'", BOOT_SCRIPT_HASH, 'https://accounts.google.com/gsi/client'],
  styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
  imgSrc: ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com'],
  connectSrc: ["'self'", 'ws:', 'wss:', 'https://accounts.google.com/gsi/'],
  frameSrc: ["'self'", 'https://accounts.google.com/gsi/', 'https://checkout.stripe.com'],
  formAction: ["'self'", 'https://checkout.stripe.com'],
  upgradeInsecureRequests: null,
};

/**
 * The directives with the origin of IMAGE_BASE_URL (a CDN or public bucket that /images/{key} redirects to, docs/decisions.md
 * "Images in object storage") among the image sources: a browser checks a redirect's target against `img-src` too.
 */
function withImages(imageBaseUrl: string | undefined): Directives {
  if (!imageBaseUrl) return directives;
  return { ...directives, imgSrc: [...directives.imgSrc!, new URL(imageBaseUrl).origin] };
}

/** helmet's `contentSecurityPolicy` for every answer. */
export const siteCsp = (imageBaseUrl: string | undefined) => ({ directives: withImages(imageBaseUrl) });

/** The admin console's page: the site's policy, with `connect-src` open to any http(s) URL for the free fetch. */
export const adminConsoleCsp = (imageBaseUrl: string | undefined) => {
  const site = withImages(imageBaseUrl);
  return { directives: { ...site, connectSrc: [...site.connectSrc!, 'https:', 'http:'] } };
};

/** The page paths that get `adminConsoleCsp` (the web client's route, with and without a trailing slash). */
export const ADMIN_CONSOLE_PATHS = ['/admin-console', '/admin-console/'] as const;
