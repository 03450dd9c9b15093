import type { ApproveBody, DonationLink, RejectBody } from '../../../../common/api/charity';
import { isCharityLink, MAX_PENDING_LINKS } from '../../../../common/charity';
import { formatMoney } from '../../../../common/money';
import type { Work } from '../../db/unit-of-work';
import { conflict, fieldError, notFound } from '../../http/errors';
import { creditCharity } from '../../ledger/commands';
import { recordEvents } from '../notifications/notifications.service';
import { presentLink } from './charity.presenter';
import * as repo from './charity.repository';

/*
 * Donation links' changes (DESIGN.md §4 "Charity", §8 "Charity and admin"), each in the caller's unit of work: a
 * send, and an administrator's one decision on a link (approve: the ledger credit, the decision and the
 * SYSTEM_MESSAGE commit together; reject: the decision and the SYSTEM_MESSAGE). A system message names no actor:
 * the user is not told which administrator decided.
 */

export const TEXT = {
  badLink: 'Enter a link like example.org/donation, without spaces.',
  tooManyPending: `You have ${MAX_PENDING_LINKS} links waiting for a decision. Send more once some are decided.`,
  noLink: 'No such donation link.',
  blank: 'This field cannot be blank.',
  approved: (charity: string, amount: number) =>
    `Your donation link to ${charity} was approved: ${formatMoney(amount, { decimals: 'always' })} was added to your balance.`,
  rejected: (charity: string, reason: string) => `Your donation link to ${charity} was rejected: ${reason}`,
  alreadyDecided: (approved: boolean) =>
    `This donation link was already ${approved ? 'approved' : 'rejected'}: a link is decided once.`,
} as const;

/** Sends a link quoting the sender's badge as it is now; at most MAX_PENDING_LINKS wait at once. */
export async function sendLink(work: Work, userId: number, link: string, now: Date): Promise<DonationLink> {
  if (!isCharityLink(link)) throw fieldError('link', TEXT.badLink);
  const sender = await repo.lockSender(work.tx, userId);
  if (!sender) throw notFound();
  if ((await repo.pendingCount(work.tx, userId)) >= MAX_PENDING_LINKS) throw fieldError('link', TEXT.tooManyPending);
  const id = await repo.insertLink(work.tx, { senderId: userId, link, badge: sender.badge, now });
  work.emit('donations', 'linkSent', { id });
  return presentLink((await repo.linkById(work.tx, id))!, 'owner');
}

/** The admin's texts, trimmed; blank ones are refused (the schema let ' ' through). */
function required(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw fieldError(field, TEXT.blank);
  return trimmed;
}

/** Locks a pending link for its decision: 404 when unknown, 409 when already decided. */
async function lockPending(work: Work, id: number): Promise<{ sender_id: number }> {
  const link = await repo.lockLink(work.tx, id);
  if (!link) throw notFound(TEXT.noLink);
  if (link.decided) throw conflict({ message: TEXT.alreadyDecided(link.approved) });
  return link;
}

/** Approves a pending link: `amount` cents credited to its sender from the external-charity account, once. */
export async function approveLink(work: Work, adminId: number, body: ApproveBody, now: Date): Promise<DonationLink> {
  const charityName = required('charityName', body.charityName);
  const adminCategory = required('adminCategory', body.adminCategory);
  const link = await lockPending(work, body.charityLinkId);
  await creditCharity(work, { userId: link.sender_id, amount: body.amount, linkId: body.charityLinkId, charityName });
  await repo.decide(work.tx, {
    id: body.charityLinkId,
    approved: true,
    amount: body.amount,
    charityName,
    adminCategory,
    rejectionReason: null,
    publiclyVisible: body.isPubliclyVisible,
    decidedBy: adminId,
    now,
  });
  await repo.addOptions(work.tx, [
    { kind: 'NAME', value: charityName },
    { kind: 'CATEGORY', value: adminCategory },
  ]);
  await recordEvents(work, [
    {
      userId: link.sender_id,
      topic: 'SYSTEM_MESSAGE',
      amount: body.amount,
      message: TEXT.approved(charityName, body.amount),
    },
  ]);
  work.emit('donations', 'linkDecided', { id: body.charityLinkId });
  return presentLink((await repo.linkById(work.tx, body.charityLinkId))!, 'admin');
}

/** Rejects a pending link with a reason; no money moves. */
export async function rejectLink(work: Work, adminId: number, body: RejectBody, now: Date): Promise<DonationLink> {
  const charityName = required('charityName', body.charityName);
  const adminCategory = required('adminCategory', body.adminCategory);
  const reason = required('reason', body.reason);
  const link = await lockPending(work, body.charityLinkId);
  await repo.decide(work.tx, {
    id: body.charityLinkId,
    approved: false,
    amount: null,
    charityName,
    adminCategory,
    rejectionReason: reason,
    publiclyVisible: body.isPubliclyVisible,
    decidedBy: adminId,
    now,
  });
  await repo.addOptions(work.tx, [
    { kind: 'NAME', value: charityName },
    { kind: 'CATEGORY', value: adminCategory },
    { kind: 'REJECTION_REASON', value: reason },
  ]);
  await recordEvents(work, [
    { userId: link.sender_id, topic: 'SYSTEM_MESSAGE', message: TEXT.rejected(charityName, reason) },
  ]);
  work.emit('donations', 'linkDecided', { id: body.charityLinkId });
  return presentLink((await repo.linkById(work.tx, body.charityLinkId))!, 'admin');
}
