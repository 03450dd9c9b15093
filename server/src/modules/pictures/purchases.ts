import { sql } from 'drizzle-orm';
import { foldPurchase, RECENT_PURCHASES, type EarlierPurchases } from '../../../../common/trending';
import type { Envelope } from '../../../../common/live';
import { rows, type Executor } from '../../db/connection';
import type { Work } from '../../db/unit-of-work';
import type { LiveEvent } from '../../live/bus';
import { recordEvents, type NotificationEvent } from '../notifications/events';

/** IMAGE_OVERTOOK is sent only about places on the first pages of the top list, where a place means something. */
export const OVERTOOK_TOP_PLACES = 1000;
/** A huge payment can pass thousands of pictures at once; only the nearest this many hear about it. */
export const OVERTOOK_MAX_EVENTS = 50;

export interface NewPurchase {
  pictureId: number;
  authorId: number;
  payerId: number;
  amount: number;
  now: Date;
  entryId: number;
  /** True for the upload price: the picture row was just inserted with its figures already counted. */
  first?: boolean;
}

interface FiguresRow {
  total_amount: number;
  /** As text, to keep PostgreSQL's microseconds for the comparisons in the top index. */
  created_text: string;
  purchase_count: number;
  earlier_amount: number;
  earlier_score: number;
  earlier_at: Date | string | null;
}

/**
 * Adds one payment to a picture's fund inside the payment's transaction: the figures every ranking reads, the
 * purchase row, the folding of the purchase that leaves the recent window, notification events, and the live fund
 * message (published after commit). The picture row is locked first, so purchases of one picture take turns.
 */
export async function addPurchase(work: Work, p: NewPurchase): Promise<void> {
  const authorFund = p.payerId === p.authorId;
  const now = p.now.toISOString();
  const [figures] = p.first
    ? await rows<FiguresRow>(
        work.tx,
        sql`SELECT total_amount, created_at::text AS created_text, purchase_count, earlier_amount, earlier_score,
              earlier_at
            FROM pictures WHERE id = ${p.pictureId}`,
      )
    : await rows<FiguresRow>(
        work.tx,
        sql`UPDATE pictures SET total_amount = total_amount + ${p.amount}, purchase_count = purchase_count + 1,
              trending_score = trending_score + 1000.0::float8 * ${p.amount},
              last_author_payment = ${authorFund ? sql`${now}::timestamptz` : sql`last_author_payment`}
            WHERE id = ${p.pictureId}
            RETURNING total_amount, created_at::text AS created_text, purchase_count, earlier_amount, earlier_score,
              earlier_at`,
      );
  if (!figures) throw new Error(`picture ${p.pictureId} vanished during a purchase`);

  await work.tx.execute(
    sql`INSERT INTO picture_purchases (picture_id, user_id, amount, paid_at, entry_id)
        VALUES (${p.pictureId}, ${p.payerId}, ${p.amount}, ${now}::timestamptz, ${p.entryId})`,
  );
  if (figures.purchase_count > RECENT_PURCHASES) await foldLeaving(work.tx, p.pictureId, figures, p.now);

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
  const oldTotal = p.first ? 0 : figures.total_amount - p.amount;
  events.push(...(await overtaken(work.tx, p, figures, oldTotal)));
  await recordEvents(work.tx, events);

  const fund: Envelope<'picture', 'fund'> = {
    ch: 'picture',
    t: 'fund',
    m: { pictureId: p.pictureId, authorFund, fundAmount: p.amount, fundOn: now },
  };
  work.emit(fund as LiveEvent);
}

/** The purchase that just dropped out of the newest RECENT_PURCHASES joins the folded earlier part. */
async function foldLeaving(exec: Executor, pictureId: number, figures: FiguresRow, now: Date): Promise<void> {
  const [leaving] = await rows<{ amount: number; paid_at: Date | string }>(
    exec,
    sql`SELECT amount, paid_at FROM picture_purchases WHERE picture_id = ${pictureId}
        ORDER BY id DESC OFFSET ${RECENT_PURCHASES} LIMIT 1`,
  );
  if (!leaving) return;
  const earlier: EarlierPurchases | null =
    figures.earlier_amount > 0 && figures.earlier_at
      ? { amount: figures.earlier_amount, score: figures.earlier_score, at: figures.earlier_at }
      : null;
  const folded = foldPurchase(earlier, { amount: leaving.amount, paidOn: leaving.paid_at }, now.getTime());
  await exec.execute(
    sql`UPDATE pictures SET earlier_amount = ${folded.amount}, earlier_score = ${folded.score}::float8,
          earlier_at = ${String(folded.at)}::timestamptz
        WHERE id = ${pictureId}`,
  );
}

/**
 * IMAGE_OVERTOOK for the authors of the pictures this payment lifted the picture past in the top list. They are
 * the rows between its old and new place in the top index, so both reads are bounded walks of that index.
 */
async function overtaken(
  exec: Executor,
  p: NewPurchase,
  figures: FiguresRow,
  oldTotal: number,
): Promise<NotificationEvent[]> {
  // Constants, not a join: the planner then walks the index between the two keys instead of from the top.
  const created = sql`${figures.created_text}::timestamptz`;
  const now = sql`(${figures.total_amount}::bigint, ${created}, ${p.pictureId}::bigint)`;
  const before = sql`(${oldTotal}::bigint, ${created}, ${p.pictureId}::bigint)`;
  const [place] = await rows<{ above: number }>(
    exec,
    sql`SELECT count(*)::int AS above FROM (
          SELECT 1 FROM pictures WHERE (total_amount, created_at, id) > ${now} LIMIT ${OVERTOOK_TOP_PLACES}) a`,
  );
  const newIndex = place?.above ?? OVERTOOK_TOP_PLACES;
  if (newIndex >= OVERTOOK_TOP_PLACES) return [];
  const passed = await rows<{ id: number; author_id: number }>(
    exec,
    sql`SELECT id, author_id FROM pictures
        WHERE (total_amount, created_at, id) < ${now} AND (total_amount, created_at, id) > ${before}
        ORDER BY total_amount DESC, created_at DESC, id DESC LIMIT ${OVERTOOK_MAX_EVENTS}`,
  );
  return passed.flatMap((q, i) =>
    // Passing one's own picture is not news to anyone.
    q.author_id === p.payerId || q.author_id === p.authorId
      ? []
      : [
          {
            userId: q.author_id,
            topic: 'IMAGE_OVERTOOK' as const,
            actorId: p.payerId,
            pictureId: q.id,
            amount: newIndex + 1 + i,
          },
        ],
  );
}
