import type { DonationLink, DonationLinksQuery } from '../../../../common/api/charity';
import { DONATION_PAGE } from '../../../../common/charity';
import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
import { presentLink } from './charity.presenter';
import * as repo from './charity.repository';

/*
 * Donation links' reads (docs/product.md#charity). Every list is newest first, one page at a
 * time. Sending and deciding are charity.commands.ts.
 */

export interface Page {
  beforeId?: number;
  limit: number;
}

export function parsePage(q: DonationLinksQuery = {}): Page {
  const limit = q.limit === undefined ? DONATION_PAGE : Number(q.limit);
  if (limit < 1 || limit > DONATION_PAGE) throw fieldError('limit', `Ask for 1 to ${DONATION_PAGE} links.`);
  return { limit, beforeId: q.beforeId === undefined ? undefined : Number(q.beforeId) };
}

/** The caller's own links, every status. */
export async function myLinks(ctx: AppContext, userId: number, page: Page): Promise<DonationLink[]> {
  const found = await repo.listLinks(ctx.db, { ...page, senderId: userId });
  return found.map((r) => presentLink(r, 'owner'));
}

/** Decided, publicly visible links, without their senders. */
export async function publicLinks(ctx: AppContext, page: Page): Promise<DonationLink[]> {
  const found = await repo.listLinks(ctx.db, { ...page, publicOnly: true });
  return found.map((r) => presentLink(r, 'public'));
}

/** For the admin console: every link, or one user's (an unknown user has none). */
export async function adminLinks(ctx: AppContext, page: Page, senderId?: number): Promise<DonationLink[]> {
  const found = await repo.listLinks(ctx.db, { ...page, senderId });
  return found.map((r) => presentLink(r, 'admin'));
}

export function optionList(ctx: AppContext, kind: repo.OptionKind): Promise<string[]> {
  return repo.options(ctx.db, kind);
}
