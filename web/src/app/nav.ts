export { MENU, type NavItem } from '../../../common/shell';

/**
 * Paths a logged-out visitor may stay on; any other sends them to / with the sign-in popup. The goodwill proof is
 * public like the CSV it offers: anyone may check the forwarding. So is the public list of donation links (the public
 * sees what was decided), the public moderation log, and the admin console, which stays on its loading text for anyone but an admin (docs/product.md#admin).
 */
const PUBLIC_PATHS =
  /^\/($|trending\/?$|profile\/(?!edit\/?$)[^/]+\/?$|image\/|verify-email\/?$|close-the-window\/?$|goodwill\/proof\/?$|public-donations\/?$|admin-console\/?$|moderation-log\/?$)/;
export const isPublicPath = (pathname: string): boolean => PUBLIC_PATHS.test(pathname);

/** Wall-like pages that get the desktop extra panel. */
export const hasExtraPanel = (pathname: string): boolean => /^\/($|trending\/?$|profile)/.test(pathname);
