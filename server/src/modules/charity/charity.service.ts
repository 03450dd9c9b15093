import type { DonationLinksQuery } from '../../../../common/api/charity';
import { DONATION_PAGE } from '../../../../common/charity';
import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
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
export function myLinks(ctx: AppContext, userId: number, page: Page): Promise<repo.LinkRow[]> {
  return repo.listLinks(ctx.db, { ...page, senderId: userId });
}

/** Decided, publicly visible links, without their senders. */
export function publicLinks(ctx: AppContext, page: Page): Promise<repo.LinkRow[]> {
  return repo.listLinks(ctx.reads.lagTolerant(), { ...page, publicOnly: true });
}

/** For the admin console: every link, or one user's (an unknown user has none). */
export function adminLinks(ctx: AppContext, page: Page, senderId?: number): Promise<repo.LinkRow[]> {
  return repo.listLinks(ctx.db, { ...page, senderId });
}

export function optionList(ctx: AppContext, kind: repo.OptionKind): Promise<string[]> {
  return repo.options(ctx.db, kind);
}
