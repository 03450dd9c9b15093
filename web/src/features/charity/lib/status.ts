import { donationStatus, type DonationStatus } from '../../../../../common/charity';
import type { DonationLink } from '../../../../../common/api/charity';

/** How a status reads on a chip and on a card's badge. */
export const STATUS_LABEL: Record<DonationStatus, string> = {
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  PENDING: 'Pending',
};

/** The multi-select chips (docs/product.md#charity): none selected shows every link. */
export function filterByStatus<T extends Pick<DonationLink, 'decided' | 'approved'>>(
  links: readonly T[],
  selected: ReadonlySet<DonationStatus>,
): T[] {
  if (selected.size === 0) return [...links];
  return links.filter((l) => selected.has(donationStatus(l)));
}

/** A chip click: on when it was off, off when it was on. */
export function toggleStatus(selected: ReadonlySet<DonationStatus>, status: DonationStatus): Set<DonationStatus> {
  const next = new Set(selected);
  if (next.has(status)) next.delete(status);
  else next.add(status);
  return next;
}

/** Newest first by createdOn (the admin list; the server sends every list that way, this keeps it so). */
export const newestFirst = <T extends Pick<DonationLink, 'createdOn' | 'id'>>(links: readonly T[]): T[] =>
  [...links].sort((a, b) => Date.parse(b.createdOn) - Date.parse(a.createdOn) || b.id - a.id);
