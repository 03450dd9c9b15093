import { foldPurchase, RECENT_PURCHASES } from '../../../../common/trending';
import type { Work } from '../../db/unit-of-work';
import { fieldError, notFound } from '../../http/errors';
import * as ledger from '../../ledger/commands';
import { recordEvents, type NotificationEvent } from '../notifications/notifications.service';
import {
  authorOf,
  countPurchase,
  figures as figuresOf,
  insertPurchase,
  picturesBetween,
  placeInTop,
  purchaseLeavingWindow,
  setEarlierPurchases,
  insertPicture,
  pictureById,
  type PictureRow,
  type Figures,
} from './pictures.repository';

/*
 * The wall's multi-row changes, each one command taking the unit of work: the payment through the ledger, the
 * picture's figures, the purchase row, notification events and the live fund message commit or fail together.
 */

/** IMAGE_OVERTOOK is sent only about places on the first pages of the top list, where a place means something. */
export const OVERTOOK_TOP_PLACES = 1000;
/** A huge payment can pass thousands of pictures at once; only the nearest this many hear about it. */
export const OVERTOOK_MAX_EVENTS = 50;

/** A checked upload waiting for its payment (pictures.service.ts `prepareUpload`); `key` is where its file goes. */
export interface ReadyUpload {
  amount: number;
  title: string;
  key: string;
  width: number;
  height: number;
  /** The widths its variants are stored at (image.ts `variantWidthsFor`); null for the base file alone. */
  variantWidths: number[] | null;
  /** Its ThumbHash, base64; null when none was made. */
  placeholder: string | null;
}

/** The upload price is the picture's first purchase: the picture exists only if the charge succeeds. */
export async function uploadPicture(work: Work, now: Date, userId: number, upload: ReadyUpload): Promise<number> {
  const pictureId = await insertPicture(work.tx, {
    authorId: userId,
    title: upload.title,
    imageKey: upload.key,
    width: upload.width,
    height: upload.height,
    variantWidths: upload.variantWidths,
    placeholder: upload.placeholder,
    amount: upload.amount,
    at: now,
  });
  const { entryId } = await ledger.uploadPicture(work, { userId, amount: upload.amount, pictureId });
  const counted = await figuresOf(work.tx, pictureId);
  await addPurchase(work, counted!, {
    pictureId,
    authorId: userId,
    payerId: userId,
    amount: upload.amount,
    now,
    entryId,
  });
  return pictureId;
}

export async function fundPicture(
  work: Work,
  now: Date,
  input: { userId: number; pictureId: number; amount: number },
): Promise<PictureRow> {
  // The schema bounds both, but ajv turns a string like "1e400" into Infinity before checking.
  if (!Number.isSafeInteger(input.amount)) throw fieldError('amount', 'The amount must be a whole number of cents.');
  if (!Number.isSafeInteger(input.pictureId)) throw fieldError('imageId', 'Unknown picture.');
  const picture = await authorOf(work.tx, input.pictureId);
  if (!picture) throw notFound('Image not found');
  const { entryId } = await ledger.fundPicture(work, input);
  const authorFund = input.userId === picture.authorId;
  const counted = await countPurchase(work.tx, {
    pictureId: input.pictureId,
    amount: input.amount,
    authorFund,
    at: now,
  });
  if (!counted) throw new Error(`picture ${input.pictureId} vanished during a purchase`);
  await addPurchase(work, counted, {
    pictureId: input.pictureId,
    authorId: picture.authorId,
    payerId: input.userId,
    amount: input.amount,
    now,
    entryId,
    lifted: true,
  });
  return (await pictureById(work.tx, input.pictureId))!;
}

interface Purchase {
  pictureId: number;
  authorId: number;
  payerId: number;
  amount: number;
  now: Date;
  entryId: number;
  /** The payment lifted an existing picture in the top list (an upload enters it instead). */
  lifted?: boolean;
}

/**
 * Everything a counted payment brings along: its purchase row, the folding of the purchase that leaves the recent
 * window, notification events, and the live fund message (published after commit).
 */
async function addPurchase(work: Work, counted: Figures, p: Purchase): Promise<void> {
  await insertPurchase(work.tx, {
    pictureId: p.pictureId,
    payerId: p.payerId,
    amount: p.amount,
    at: p.now,
    entryId: p.entryId,
  });
  if (counted.purchaseCount > RECENT_PURCHASES) await foldLeaving(work, p.pictureId, counted, p.now);

  const authorFund = p.payerId === p.authorId;
  const events: NotificationEvent[] = [];
  if (!authorFund) {
    events.push({
      userId: p.authorId,
      topic: 'IMAGE_LIKE',
      actorId: p.payerId,
      pictureId: p.pictureId,
      amount: p.amount,
    });
  }
  events.push(...(await overtaken(work, counted, p)));
  await recordEvents(work, events, p.now);

  work.emit('picture', 'fund', {
    pictureId: p.pictureId,
    authorFund,
    fundAmount: p.amount,
    fundOn: p.now.toISOString(),
  });
}

/** The purchase that just dropped out of the newest RECENT_PURCHASES joins the folded earlier part. */
async function foldLeaving(work: Work, pictureId: number, counted: Figures, now: Date): Promise<void> {
  const leaving = await purchaseLeavingWindow(work.tx, pictureId, RECENT_PURCHASES);
  if (!leaving) return;
  await setEarlierPurchases(work.tx, pictureId, foldPurchase(counted.earlier, leaving, now.getTime()));
}

/**
 * IMAGE_OVERTOOK for the authors of the pictures this payment lifted the picture past in the top list. They are
 * the rows between its old and new place in the top index, so both reads are bounded walks of that index.
 */
async function overtaken(work: Work, counted: Figures, p: Purchase): Promise<NotificationEvent[]> {
  const now = { total: counted.totalAmount, createdText: counted.createdText, id: p.pictureId };
  const before = { ...now, total: p.lifted ? counted.totalAmount - p.amount : 0 };
  const newIndex = await placeInTop(work.tx, now, OVERTOOK_TOP_PLACES);
  if (newIndex >= OVERTOOK_TOP_PLACES) return [];
  const passed = await picturesBetween(work.tx, now, before, OVERTOOK_MAX_EVENTS);
  return passed.flatMap((q, i) =>
    // Passing one's own picture is not news to anyone.
    q.authorId === p.payerId || q.authorId === p.authorId
      ? []
      : [
          {
            userId: q.authorId,
            topic: 'IMAGE_OVERTOOK' as const,
            actorId: p.payerId,
            pictureId: q.id,
            amount: newIndex + 1 + i,
          },
        ],
  );
}
