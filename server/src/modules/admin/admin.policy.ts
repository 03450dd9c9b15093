import type { SessionUser } from '../../http/auth';

/*
 * The admin domain's one rule: administrators only (granted with `npm run admin -- grant USERNAME`). Routes under
 * /api/admin/ call `requireAdmin`; admin.policy.test.ts proves every one of them refuses everybody else.
 */
export const isAdmin = (user: SessionUser): boolean => user.isAdmin;
