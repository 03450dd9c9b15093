import { Type, type Static } from 'typebox';
import { Nullable } from './shared';
import { CHARITY_LINK_MAX_LENGTH, CHARITY_LINK_PATTERN, CHARITY_TEXT_MAX_LENGTH } from '../charity';
import { MAX_TOPUP_CENTS } from '../constants';

/** POST /api/charity-link/send (docs/product.md#charity); charity tenants only (403 elsewhere). */
export const SendLinkBody = Type.Object({
  link: Type.String({ pattern: CHARITY_LINK_PATTERN.source, maxLength: CHARITY_LINK_MAX_LENGTH }),
});
export type SendLinkBody = Static<typeof SendLinkBody>;

/**
 * A donation link as the server sends it (docs/product.md#charity). In the public list `sender` is null: no sender
 * id or username leaves the server there (docs/product.md#charity).
 */
export const DonationLink = Type.Object({
  id: Type.Integer(),
  charityName: Nullable(Type.String()),
  link: Type.String(),
  badgeId: Type.String(),
  createdOn: Type.String({ description: 'ISO 8601' }),
  decided: Type.Boolean(),
  approved: Type.Boolean(),
  adminRejectionReason: Nullable(Type.String()),
  sender: Nullable(Type.Object({ id: Type.Integer(), username: Type.String() })),
  publiclyVisible: Type.Boolean(),
  adminCategory: Nullable(Type.String()),
  /** Cents credited on approval; null until approved. */
  amount: Nullable(Type.Integer()),
});
export type DonationLink = Static<typeof DonationLink>;

/** Every list: newest first (by createdOn). */
export const DonationLinks = Type.Array(DonationLink);
export type DonationLinks = Static<typeof DonationLinks>;

/** Shared by approve and reject: what the admin typed about the charity. */
const DecisionFields = {
  charityLinkId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  charityName: Type.String({ minLength: 1, maxLength: CHARITY_TEXT_MAX_LENGTH }),
  adminCategory: Type.String({ minLength: 1, maxLength: CHARITY_TEXT_MAX_LENGTH }),
  isPubliclyVisible: Type.Boolean(),
};

/** POST /api/admin/charity/approve: `amount` in cents, credited to the sender from the external-charity account. */
export const ApproveBody = Type.Object({
  ...DecisionFields,
  amount: Type.Integer({ minimum: 1, maximum: MAX_TOPUP_CENTS }),
});
export type ApproveBody = Static<typeof ApproveBody>;

/** POST /api/admin/charity/reject. */
export const RejectBody = Type.Object({
  ...DecisionFields,
  reason: Type.String({ minLength: 1, maxLength: CHARITY_TEXT_MAX_LENGTH }),
});
export type RejectBody = Static<typeof RejectBody>;

/**
 * The answer to approve and reject (200): the decided link. The console shows the answer's text as it came, or
 * 'Success' when it is empty (docs/product.md#charity). A link already decided answers 409 with a message; an unknown id 404.
 */
export const DecisionAnswer = DonationLink;
export type DecisionAnswer = Static<typeof DecisionAnswer>;

/** GET /api/admin/charity-categories, /api/admin/charityNames, /api/admin/charity-rejection-reasons. */
export const StringList = Type.Array(Type.String());
export type StringList = Static<typeof StringList>;

/** GET /api/admin/user-donations/{userId}. */
export const UserDonationsParams = Type.Object({
  userId: Type.String({ pattern: '^[0-9]{1,15}$', description: 'a user id' }),
});
export type UserDonationsParams = Static<typeof UserDonationsParams>;

/**
 * Optional paging of every donation list (my-links, public, all-links, user-donations): newest first, at most
 * `limit` (1 to DONATION_PAGE, default DONATION_PAGE) links with ids below `beforeId`. Without it: the newest page.
 */
export const DonationLinksQuery = Type.Object({
  beforeId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
});
export type DonationLinksQuery = Static<typeof DonationLinksQuery>;
