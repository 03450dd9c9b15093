import type { DonationLink } from '../../../../common/api/charity';
import { isoTime } from '../../../../common/time';
import type { LinkRow } from './charity.repository';

/**
 * The fields of a donation link that leave the server (docs/product.md#charity). The sender, their own lists and
 * the admin console see everything. The public list (docs/product.md#charity) carries no sender (id or username) and no amount
 * credited to anybody's balance: only what the card shows (status, charity, badge, link, time, rejection reason).
 */
export function presentLink(r: LinkRow, audience: 'owner' | 'admin' | 'public'): DonationLink {
  const open = audience !== 'public';
  return {
    id: r.id,
    charityName: r.charity_name,
    link: r.link,
    badgeId: r.badge,
    createdOn: isoTime(r.created_at),
    decided: r.decided,
    approved: r.approved,
    adminRejectionReason: r.rejection_reason,
    sender: open ? { id: r.sender_id, username: r.sender_name ?? '' } : null,
    publiclyVisible: r.publicly_visible,
    adminCategory: r.admin_category,
    amount: open ? r.amount : null,
  };
}
