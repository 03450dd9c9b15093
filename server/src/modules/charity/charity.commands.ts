import { createHash } from 'node:crypto';
import type { ApproveBody, RejectBody } from '../../../../common/api/charity';
import { charityLinkKey, charityLinkProblem, CHARITY_LINK_TEXT, MAX_PENDING_LINKS } from '../../../../common/charity';
import { formatMoney } from '../../../../common/money';
import { charityPush } from '../../../../common/push-messages';
import type { Work } from '../../db/unit-of-work';
import { conflict, fieldError, notFound } from '../../http/errors';
import { creditCharity } from '../../ledger/commands';
import { recordEvents } from '../notifications/notifications.service';
import { queuePush } from '../push/push.service';
import * as repo from './charity.repository';

/*
 * Donation links' changes (docs/product.md#charity), each in the caller's unit of work: a
 * send, and an administrator's one decision on a link (approve: the ledger credit, the decision and the
 * SYSTEM_MESSAGE commit together; reject: the decision and the SYSTEM_MESSAGE). A system message names no actor:
 * the user is not told which administrator decided.
 */

export const TEXT = {
  ...CHARITY_LINK_TEXT,
  tooManyPending: `You have ${MAX_PENDING_LINKS} links waiting for a decision. Send more once some are decided.`,
  noLink: 'No such donation link.',
  blank: 'This field cannot be blank.',
  approved: (charity: string, amount: number) =>
    `Your donation link to ${charity} was approved: ${formatMoney(amount, { decimals: 'always' })} was added to your balance.`,
  rejected: (charity: string, reason: string) => `Your donation link to ${charity} was rejected: ${reason}`,
  alreadyDecided: (approved: boolean) =>
    `This donation link was already ${approved ? 'approved' : 'rejected'}: a link is decided once.`,
  copyOf: (id?: number) =>
    `This donation was already sent in ${id === undefined ? 'another link' : `link ${id}`}, and a donation is ` +
    'credited once. Reject this link as a copy.',
  notWebLink: 'This link is not a web link (http or https) and cannot be approved. Reject it.',
} as const;

/** The link's key: SHA-256 (hex) of its normal form (common/charity.ts), for the unique index on pending and approved links. */
function keyOf(link: string): string | undefined {
  const normal = charityLinkKey(link);
  return normal === undefined ? undefined : createHash('sha256').update(normal, 'utf8').digest('hex');
}

/**
 * Sends a link quoting the sender's badge as it is now; at most MAX_PENDING_LINKS wait at once. A link whose normal
 * form is already pending or approved, whoever sent it, is refused: one donation is credited once.
 */
export async function sendLink(work: Work, userId: number, link: string, now: Date): Promise<repo.LinkRow> {
  const problem = charityLinkProblem(link);
  const key = keyOf(link);
  if (problem !== undefined || key === undefined) throw fieldError('link', problem ?? TEXT.shape);
  const sender = await repo.lockSender(work.tx, userId);
  if (!sender) throw notFound();
  if ((await repo.pendingCount(work.tx, userId)) >= MAX_PENDING_LINKS) throw fieldError('link', TEXT.tooManyPending);
  const id = await repo.insertLink(work.tx, { senderId: userId, link, key, badge: sender.badge, now });
  if (id === undefined) throw fieldError('link', TEXT.taken);
  work.emit('donations', 'linkSent', { id });
  return (await repo.linkById(work.tx, id))!;
}

/** The admin's texts, trimmed; blank ones are refused (the schema let ' ' through). */
function required(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw fieldError(field, TEXT.blank);
  return trimmed;
}

/** Locks a pending link for its decision: 404 when unknown, 409 when already decided. */
async function lockPending(work: Work, id: number): Promise<{ sender_id: number; link: string }> {
  const link = await repo.lockLink(work.tx, id);
  if (!link) throw notFound(TEXT.noLink);
  if (link.decided) throw conflict({ message: TEXT.alreadyDecided(link.approved) });
  return link;
}

/**
 * The approval's re-check, in its transaction: the link is a web link, and no other pending or approved link is the
 * same donation. The link takes its key by the app's rule (one stored before the rule was keyed by migration 0011's
 * SQL rendering of it), so two copies that predate the rule cannot both be approved: the second finds the first, or
 * (approved at the same moment) the unique index refuses its key. A failed key write ends the transaction's use.
 */
async function claimDonation(work: Work, id: number, link: string): Promise<void> {
  const key = keyOf(link);
  if (key === undefined) throw conflict({ message: TEXT.notWebLink });
  const copy = await repo.linkWithKey(work.tx, key, id);
  if (copy !== undefined) throw conflict({ message: TEXT.copyOf(copy) });
  if (!(await repo.setLinkKey(work.tx, id, key))) throw conflict({ message: TEXT.copyOf() });
}

/** Approves a pending link: `amount` cents credited to its sender from the external-charity account, once. */
export async function approveLink(work: Work, adminId: number, body: ApproveBody, now: Date): Promise<repo.LinkRow> {
  const charityName = required('charityName', body.charityName);
  const adminCategory = required('adminCategory', body.adminCategory);
  const link = await lockPending(work, body.charityLinkId);
  await claimDonation(work, body.charityLinkId, link.link);
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
  const approved = TEXT.approved(charityName, body.amount);
  await recordEvents(
    work,
    [{ userId: link.sender_id, topic: 'SYSTEM_MESSAGE', amount: body.amount, message: approved }],
    now,
  );
  await queuePush(work, link.sender_id, charityPush({ approved: true, text: approved }), now);
  work.emit('donations', 'linkDecided', { id: body.charityLinkId });
  return (await repo.linkById(work.tx, body.charityLinkId))!;
}

/** Rejects a pending link with a reason; no money moves. */
export async function rejectLink(work: Work, adminId: number, body: RejectBody, now: Date): Promise<repo.LinkRow> {
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
  const rejected = TEXT.rejected(charityName, reason);
  await recordEvents(work, [{ userId: link.sender_id, topic: 'SYSTEM_MESSAGE', message: rejected }], now);
  await queuePush(work, link.sender_id, charityPush({ approved: false, text: rejected }), now);
  work.emit('donations', 'linkDecided', { id: body.charityLinkId });
  return (await repo.linkById(work.tx, body.charityLinkId))!;
}
