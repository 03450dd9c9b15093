import { sql, type SQL } from 'drizzle-orm';
import { RECENT_PURCHASES, trendingScore, type EarlierPurchases } from '../../../../common/trending';
import { rows, type Executor } from '../../db/connection';
import { imageUrl } from '../../storage/storage';
import type { Picture } from './pictures.schemas';

interface PictureRow {
  id: number;
  author_id: number;
  author_name: string | null;
  author_profile_img_id: number | null;
  author_profile_key: string | null;
  image_key: string;
  title: string;
  width: number;
  height: number;
  comment_count: number;
  last_author_payment: Date | string;
  total_amount: number;
  created_at: Date | string;
  purchase_count: number;
  earlier_amount: number;
  earlier_score: number;
  earlier_at: Date | string | null;
  purchases: { amount: number; paidOn: string }[] | string;
}

const iso = (t: Date | string) => new Date(t).toISOString();

/** The fields that leave the server (SPEC §3 Picture, plus the figures the client ranks with). */
function present(r: PictureRow, now: Date): Picture {
  const raw = typeof r.purchases === 'string' ? JSON.parse(r.purchases) : r.purchases;
  const purchases = (raw as { amount: number; paidOn: string }[]).map((p) => ({
    amount: Number(p.amount),
    paidOn: iso(p.paidOn),
  }));
  const earlier: EarlierPurchases | null =
    r.earlier_amount > 0 && r.earlier_at
      ? { amount: r.earlier_amount, score: r.earlier_score, at: iso(r.earlier_at) }
      : null;
  return {
    id: r.id,
    authorId: r.author_id,
    authorName: r.author_name ?? '',
    authorProfileImgId: r.author_profile_img_id,
    authorProfileUrl: r.author_profile_key ? imageUrl(r.author_profile_key) : null,
    url: imageUrl(r.image_key),
    title: r.title,
    width: r.width,
    height: r.height,
    commentCount: r.comment_count,
    lastAuthorPayment: iso(r.last_author_payment),
    purchases,
    earlierPurchases: earlier && { count: r.purchase_count - purchases.length, ...earlier, at: String(earlier.at) },
    purchaseCount: r.purchase_count,
    totalAmount: r.total_amount,
    createdOn: iso(r.created_at),
    trendingScore: trendingScore(purchases, earlier, now.getTime()),
  };
}

/**
 * One page of pictures in one query: `page` selects the ids (an index walk with its own LIMIT), `order` sorts the
 * joined rows the same way.
 */
export async function picturesPage(exec: Executor, page: SQL, order: SQL, now: Date): Promise<Picture[]> {
  const found = await rows<PictureRow>(
    exec,
    sql`SELECT p.id, p.author_id, u.username AS author_name, u.profile_image_id AS author_profile_img_id,
          pi.image_key AS author_profile_key, p.image_key, p.title, p.width, p.height, p.comment_count,
          p.last_author_payment, p.total_amount, p.created_at, p.purchase_count,
          p.earlier_amount, p.earlier_score, p.earlier_at,
          (SELECT coalesce(json_agg(json_build_object('amount', r.amount, 'paidOn', r.paid_at) ORDER BY r.id), '[]')
             FROM (SELECT id, amount, paid_at FROM picture_purchases
                   WHERE picture_id = p.id ORDER BY id DESC LIMIT ${RECENT_PURCHASES}) r) AS purchases
        FROM (${page}) page
        JOIN pictures p ON p.id = page.id
        JOIN users u ON u.id = p.author_id
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id
        ORDER BY ${order}`,
  );
  return found.map((r) => present(r, now));
}

/** Pictures by id, in the order of `ids`; unknown ids are skipped. */
export function picturesByIds(exec: Executor, ids: readonly number[], now: Date): Promise<Picture[]> {
  if (ids.length === 0) return Promise.resolve([]);
  if (!ids.every(Number.isSafeInteger)) throw new Error('picture ids must be integers');
  const list = `{${ids.join(',')}}`;
  return picturesPage(
    exec,
    sql`SELECT id, ord FROM unnest(${list}::bigint[]) WITH ORDINALITY AS ids(id, ord)`,
    sql`page.ord`,
    now,
  );
}

export async function pictureById(exec: Executor, id: number, now: Date): Promise<Picture | undefined> {
  const [picture] = await picturesByIds(exec, [id], now);
  return picture;
}

/** The URL of a user's profile picture, or null: for the users module's profile and user-info answers. */
export async function profileImageUrlOf(exec: Executor, userId: number): Promise<string | null> {
  const [row] = await rows<{ image_key: string }>(
    exec,
    sql`SELECT pi.image_key FROM users u JOIN pictures pi ON pi.id = u.profile_image_id WHERE u.id = ${userId}`,
  );
  return row ? imageUrl(row.image_key) : null;
}

/** Profile picture URLs of many users at once (chat lists, comments); users without one are left out. */
export async function profileImageUrlsOf(exec: Executor, userIds: readonly number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const list = sql.join(
    [...new Set(userIds)].map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  const found = await rows<{ id: number; image_key: string }>(
    exec,
    sql`SELECT u.id, pi.image_key FROM users u JOIN pictures pi ON pi.id = u.profile_image_id WHERE u.id IN (${list})`,
  );
  return new Map(found.map((r) => [r.id, imageUrl(r.image_key)]));
}

export async function authorOf(exec: Executor, pictureId: number): Promise<{ authorId: number } | undefined> {
  const [row] = await rows<{ author_id: number }>(exec, sql`SELECT author_id FROM pictures WHERE id = ${pictureId}`);
  return row && { authorId: row.author_id };
}

export async function setProfileImage(exec: Executor, userId: number, pictureId: number): Promise<void> {
  await exec.execute(sql`UPDATE users SET profile_image_id = ${pictureId} WHERE id = ${userId}`);
}
