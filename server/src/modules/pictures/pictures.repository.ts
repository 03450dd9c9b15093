import { sql, type SQL } from 'drizzle-orm';
import { RECENT_PURCHASES, type EarlierPurchases } from '../../../../common/trending';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import {
  baseKeyOf,
  FORMAT_TYPES,
  IMAGE_TYPES,
  IMAGE_URL_PREFIX,
  STORAGE_KEY,
  type VariantFormat,
} from '../../storage/storage';
import type { picturePurchases, pictures } from './pictures.tables';

/** A picture as the lists read it: its row, its author's name and face, and its newest purchases. */
export type PictureRow = Columns<
  typeof pictures,
  | 'id'
  | 'author_id'
  | 'image_key'
  | 'title'
  | 'width'
  | 'height'
  | 'variant_widths'
  | 'placeholder'
  | 'comment_count'
  | 'last_author_payment'
  | 'total_amount'
  | 'created_at'
  | 'purchase_count'
  | 'earlier_amount'
  | 'earlier_score'
  | 'earlier_at'
> & {
  author_name: SqlRow<typeof users>['username'] | null;
  author_profile_img_id: SqlRow<typeof users>['profile_image_id'];
  author_profile_key: SqlRow<typeof pictures>['image_key'] | null;
  author_profile_widths: SqlRow<typeof pictures>['variant_widths'];
  /** JSON from the database: pglite hands it back parsed, pg as text. */
  purchases: { amount: number; paidOn: string }[] | string;
};

/**
 * One page of pictures in one query: `page` selects the ids (an index walk with its own LIMIT), `order` sorts the
 * joined rows the same way.
 */
export function picturesPage(exec: Executor, page: SQL, order: SQL): Promise<PictureRow[]> {
  return sqlRows(
    exec,
    sql<PictureRow>`SELECT p.id, p.author_id, u.username AS author_name, pi.id AS author_profile_img_id,
          pi.image_key AS author_profile_key, pi.variant_widths AS author_profile_widths,
          p.image_key, p.title, p.width, p.height, p.variant_widths, p.placeholder, p.comment_count,
          p.last_author_payment, p.total_amount, p.created_at, p.purchase_count,
          p.earlier_amount, p.earlier_score, p.earlier_at,
          (SELECT coalesce(json_agg(json_build_object('amount', r.amount, 'paidOn', r.paid_at) ORDER BY r.id), '[]')
             FROM (SELECT id, amount, paid_at FROM picture_purchases
                   WHERE picture_id = p.id ORDER BY id DESC LIMIT ${RECENT_PURCHASES}) r) AS purchases
        FROM (${page}) page
        JOIN pictures p ON p.id = page.id
        JOIN users u ON u.id = p.author_id
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
        WHERE p.removed_at IS NULL
        ORDER BY ${order}`,
  );
}

/** Pictures by id, in the order of `ids`; unknown ids are skipped. */
export function picturesByIds(exec: Executor, ids: readonly number[]): Promise<PictureRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  if (!ids.every(Number.isSafeInteger)) throw new Error('picture ids must be integers');
  const list = `{${ids.join(',')}}`;
  return picturesPage(
    exec,
    sql`SELECT id, ord FROM unnest(${list}::bigint[]) WITH ORDINALITY AS ids(id, ord)`,
    sql`page.ord`,
  );
}

// The wall page's statement is text known at start: only the ids and the moment are parameters (`args` below).
/** A moment as `Date.prototype.toISOString` writes it: UTC with milliseconds, the microseconds cut off. */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A moment in whole milliseconds since the epoch (as float8, a JS number), cut off as `isoText` cuts it. */
const epochMs = (column: string) => `round(date_part('epoch', date_trunc('milliseconds', ${column})) * 1000)`;
/** minutesSince (common/trending.ts), in the same floating-point steps. */
const minutesSince = (column: string) => `greatest(0, (args.now_ms - ${epochMs(column)}) / 60000::float8)`;
/** A stored image's URL (storage.ts `imageUrl`), from a key that names no character JSON escapes (`STORAGE_KEY`). */
const urlOf = (key: string) => `'${IMAGE_URL_PREFIX}' || ${key}`;
/** storage.ts `variantKey`: `<hash>-<width>.<ext>`. */
const variantUrl = (key: string, width: string, format: VariantFormat) =>
  urlOf(`split_part(${key}, '.', 1) || '-' || ${width} || '.${IMAGE_TYPES[FORMAT_TYPES[format]]}'`);
/** One `srcset` entry, `<url> <width>w`. */
const srcsetEntry = (key: string, width: string, format: VariantFormat) =>
  `${variantUrl(key, width, format)} || ' ' || ${width} || 'w'`;
/** pictures.presenter.ts `sourcesOf`: AVIF and WebP at every width, JPEG below the base file's, then the base file. */
const SOURCES = `CASE WHEN cardinality(p.variant_widths) > 0 THEN (
    SELECT concat('{"avif":"', string_agg(${srcsetEntry('p.image_key', 'v.w', 'avif')}, ', ' ORDER BY v.i),
        '","webp":"', string_agg(${srcsetEntry('p.image_key', 'v.w', 'webp')}, ', ' ORDER BY v.i),
        '","jpeg":"', string_agg(${srcsetEntry('p.image_key', 'v.w', 'jpeg')}, ', ' ORDER BY v.i) FILTER (WHERE v.w < p.width)
          || ', ', ${urlOf('p.image_key')}, ' ', p.width, 'w"}')
      FROM unnest(p.variant_widths) WITH ORDINALITY AS v(w, i))
  ELSE 'null' END`;
/** storage.ts `faceUrl`: the narrowest WebP of the profile picture, else its base file. */
const FACE = `CASE WHEN pi.id IS NULL THEN 'null'
  WHEN cardinality(pi.variant_widths) > 0
    THEN concat('"', ${variantUrl('pi.image_key', '(SELECT min(w) FROM unnest(pi.variant_widths) w)', 'webp')}, '"')
  ELSE concat('"', ${urlOf('pi.image_key')}, '"') END`;
const HAS_EARLIER = `p.earlier_amount > 0 AND p.earlier_at IS NOT NULL`;
/** earlierScore (common/trending.ts). */
const EARLIER_SCORE = `CASE WHEN ${HAS_EARLIER} AND p.earlier_score > 0
  THEN (1000 * p.earlier_amount)::float8
    / ((1000 * p.earlier_amount)::float8 / p.earlier_score + ${minutesSince('p.earlier_at')})
  ELSE 0 END`;
/** Each card, in the schema's order; concat() writes it in one pass where || would copy the growing text. */
const CARD = `concat('{"id":', p.id,
  ',"authorId":', p.author_id,
  ',"authorName":', to_json(coalesce(u.username, '')),
  ',"authorProfileImgId":', coalesce(pi.id::text, 'null'),
  ',"authorProfileUrl":', ${FACE},
  ',"url":"', ${urlOf('p.image_key')},
  '","title":', to_json(p.title),
  ',"width":', p.width,
  ',"height":', p.height,
  ',"sources":', ${SOURCES},
  ',"placeholder":', coalesce(to_json(p.placeholder)::text, 'null'),
  ',"commentCount":', p.comment_count,
  ',"lastAuthorPayment":"', ${isoText('p.last_author_payment')},
  '","purchases":[', r.list,
  '],"earlierPurchases":', CASE WHEN ${HAS_EARLIER}
    THEN concat('{"count":', p.purchase_count - r.listed, ',"amount":', p.earlier_amount,
      ',"score":', p.earlier_score, ',"at":"', ${isoText('p.earlier_at')}, '"}')
    ELSE 'null' END,
  ',"purchaseCount":', p.purchase_count,
  ',"totalAmount":', p.total_amount,
  ',"createdOn":"', ${isoText('p.created_at')},
  '","trendingScore":', r.score,
  '}')`;
/**
 * A picture's newest purchases, oldest first, as the `purchases` list, their number, and the trending score: the
 * earlier part first (k = 0), then each purchase oldest first, summed one after the other as trendingScore does.
 */
const RECENT = `LATERAL (
  SELECT string_agg(concat('{"amount":', x.amount, ',"paidOn":"', ${isoText('x.paid_at')}, '"}'), ',' ORDER BY x.k)
           FILTER (WHERE x.k > 0) AS list,
         count(*) FILTER (WHERE x.k > 0) AS listed,
         sum(x.score ORDER BY x.k) AS score
    FROM (SELECT 0::bigint AS k, NULL::bigint AS amount, NULL::timestamptz AS paid_at, ${EARLIER_SCORE} AS score
          UNION ALL
          SELECT y.id, y.amount, y.paid_at, (1000 * y.amount)::float8 / (${minutesSince('y.paid_at')} + 1)
            FROM (SELECT id, amount, paid_at FROM picture_purchases
                  WHERE picture_id = p.id ORDER BY id DESC LIMIT ${RECENT_PURCHASES}) y) x) r`;
const WALL_PAGE_SELECT = sql.raw(`SELECT '[' || string_agg(${CARD}, ',' ORDER BY array_position(args.ids, p.id)) || ']'
    AS json`);
const WALL_PAGE_FROM = sql.raw(`JOIN pictures p ON p.id = ANY(args.ids) AND p.removed_at IS NULL
  JOIN users u ON u.id = p.author_id
  LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
  CROSS JOIN ${RECENT}`);

/**
 * A page of the wall as the JSON text of `Picture[]`, written whole by the database (docs/decisions.md "Issue 28:
 * the wall page"): Node sends it as it comes, without parsing rows into objects and serializing them again. It is
 * the same text, byte for byte, that `presentPicture` and the route's serializer make of each picture (held together
 * by pictures.test.ts): the fields in the schema's order, times as `toISOString` writes them, the URLs of storage.ts,
 * and the trending score at `now` summed in the order and the floating-point steps of common/trending.ts (earlier
 * purchases first, then the listed ones oldest first), so the client recomputes exactly what it was sent.
 *
 * The cards of `ids`, in that order; unknown and removed ids are skipped. One text whatever the page, with the ids
 * and the moment as its parameters: PostgreSQL keeps its plan (a named statement, db/postgres.ts) instead of
 * planning the four-table join again for each request, which cost as much as running it (docs/performance.md
 * "Wall").
 */
export async function wallPageText(exec: Executor, ids: readonly number[], now: Date): Promise<string> {
  if (ids.length === 0) return '[]';
  if (!ids.every(Number.isSafeInteger)) throw new Error('picture ids must be integers');
  const [page] = await sqlRows(
    exec,
    sql<{ json: string | null }>`${WALL_PAGE_SELECT}
      FROM (SELECT ${`{${ids.join(',')}}`}::bigint[] AS ids, ${now.getTime()}::float8 AS now_ms) args
      ${WALL_PAGE_FROM}`,
  );
  return page?.json ?? '[]';
}

export async function pictureById(exec: Executor, id: number): Promise<PictureRow | undefined> {
  const [picture] = await picturesByIds(exec, [id]);
  return picture;
}

/**
 * Whether an image file shows only pictures a moderator removed (docs/product.md#moderation): files are named by
 * their content's hash, so one file may be several pictures', and it stays served while one of them stands.
 * A variant (`<hash>-<width>.<ext>`) is judged by its base file. False for a file no picture names.
 */
export async function onlyRemovedShow(exec: Executor, imageKey: string): Promise<boolean> {
  const [row] = await sqlRows(
    exec,
    sql<{ removed: boolean | null }>`SELECT bool_and(removed_at IS NOT NULL) AS removed FROM pictures
        WHERE image_key = ${baseKeyOf(imageKey)}`,
  );
  return row?.removed === true;
}

export async function authorOf(exec: Executor, pictureId: number): Promise<{ authorId: number } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof pictures, 'author_id'>
    >`SELECT author_id FROM pictures WHERE id = ${pictureId} AND removed_at IS NULL`,
  );
  return row && { authorId: row.author_id };
}

/** Which of these storage keys a picture uses; each is one probe of the image_key index. */
export async function imageKeysInUse(exec: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  // Written into an array literal below: only the storage's own key shape may get there.
  if (!keys.every((k) => STORAGE_KEY.test(k))) throw new Error('not storage keys');
  const list = `{${keys.join(',')}}`;
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof pictures, 'image_key'>
    >`SELECT DISTINCT image_key FROM pictures WHERE image_key = ANY(${list}::text[])`,
  );
  return new Set(found.map((r) => r.image_key));
}

export interface NewPicture {
  authorId: number;
  title: string;
  imageKey: string;
  width: number;
  height: number;
  /** The widths of its variants (storage.ts `variantKey`); null when only the base file is stored. */
  variantWidths: number[] | null;
  /** Its ThumbHash, base64. */
  placeholder: string | null;
  /** The upload price: the picture's first purchase, already counted in its figures. */
  amount: number;
  at: Date;
}

export async function insertPicture(exec: Executor, p: NewPicture): Promise<number> {
  const at = p.at.toISOString();
  if (p.variantWidths && !p.variantWidths.every(Number.isSafeInteger)) throw new Error('widths must be integers');
  // An array literal: pg and PGlite both take it for int[].
  const widths = p.variantWidths ? `{${p.variantWidths.join(',')}}` : null;
  const [created] = await sqlRows(
    exec,
    sql<
      Columns<typeof pictures, 'id'>
    >`INSERT INTO pictures (author_id, title, image_key, width, height, variant_widths, placeholder,
          total_amount, purchase_count, created_at, last_author_payment, trending_score, trending_at)
        VALUES (${p.authorId}, ${p.title}, ${p.imageKey}, ${p.width}, ${p.height}, ${widths}::int[], ${p.placeholder},
          ${p.amount}, 1,
          ${at}::timestamptz, ${at}::timestamptz, 1000.0::float8 * ${p.amount}, ${at}::timestamptz)
        RETURNING id`,
  );
  return created!.id;
}

// Purchases: counting a payment in a picture's figures, and what the top list says about it.

/** A picture's ranking figures right after a purchase was counted in them. */
export interface Figures {
  totalAmount: number;
  /** As text, to keep PostgreSQL's microseconds for the comparisons in the top index. */
  createdText: string;
  purchaseCount: number;
  earlier: EarlierPurchases | null;
}

type FiguresRow = Columns<
  typeof pictures,
  'total_amount' | 'purchase_count' | 'earlier_amount' | 'earlier_score' | 'earlier_at'
> & {
  created_text: string;
};

const figuresOf = (r: FiguresRow): Figures => ({
  totalAmount: r.total_amount,
  createdText: r.created_text,
  purchaseCount: r.purchase_count,
  earlier:
    r.earlier_amount > 0 && r.earlier_at
      ? { amount: r.earlier_amount, score: r.earlier_score, at: r.earlier_at }
      : null,
});

const FIGURES = sql`total_amount, created_at::text AS created_text, purchase_count, earlier_amount, earlier_score,
  earlier_at`;

/** The figures of a picture inserted with its first purchase already counted. */
export async function figures(exec: Executor, pictureId: number): Promise<Figures | undefined> {
  const [row] = await sqlRows(exec, sql<FiguresRow>`SELECT ${FIGURES} FROM pictures WHERE id = ${pictureId}`);
  return row && figuresOf(row);
}

/**
 * Counts a payment in a picture's figures. The UPDATE locks the row, so purchases of one picture take turns; the
 * trending bound takes the payment's full contribution (ranking.repository.ts). An author paying into their own
 * picture also moves it up their profile.
 */
export async function countPurchase(
  exec: Executor,
  p: { pictureId: number; amount: number; authorFund: boolean; at: Date },
): Promise<Figures | undefined> {
  const at = p.at.toISOString();
  const [row] = await sqlRows(
    exec,
    sql<FiguresRow>`UPDATE pictures SET total_amount = total_amount + ${p.amount}, purchase_count = purchase_count + 1,
          trending_score = trending_score + 1000.0::float8 * ${p.amount},
          last_author_payment = ${p.authorFund ? sql`${at}::timestamptz` : sql`last_author_payment`}
        WHERE id = ${p.pictureId}
        RETURNING ${FIGURES}`,
  );
  return row && figuresOf(row);
}

export async function insertPurchase(
  exec: Executor,
  p: { pictureId: number; payerId: number; amount: number; at: Date; entryId: number },
): Promise<void> {
  await exec.execute(
    sql`INSERT INTO picture_purchases (picture_id, user_id, amount, paid_at, entry_id)
        VALUES (${p.pictureId}, ${p.payerId}, ${p.amount}, ${p.at.toISOString()}::timestamptz, ${p.entryId})`,
  );
}

/** The purchase that just dropped out of the newest `recent`, if one did. */
export async function purchaseLeavingWindow(
  exec: Executor,
  pictureId: number,
  recent: number,
): Promise<{ amount: number; paidOn: Date | string } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof picturePurchases, 'amount' | 'paid_at'>
    >`SELECT amount, paid_at FROM picture_purchases WHERE picture_id = ${pictureId}
        ORDER BY id DESC OFFSET ${recent} LIMIT 1`,
  );
  return row && { amount: row.amount, paidOn: row.paid_at };
}

export async function setEarlierPurchases(exec: Executor, pictureId: number, folded: EarlierPurchases): Promise<void> {
  await exec.execute(
    sql`UPDATE pictures SET earlier_amount = ${folded.amount}, earlier_score = ${folded.score}::float8,
          earlier_at = ${String(folded.at)}::timestamptz
        WHERE id = ${pictureId}`,
  );
}

/** A picture's key in the top index: total, then creation time, then id. */
export interface TopKey {
  total: number;
  createdText: string;
  id: number;
}

const topKey = (k: TopKey) => sql`(${k.total}::bigint, ${k.createdText}::timestamptz, ${k.id}::bigint)`;

/** How many pictures rank above `key` in the top list, counting at most `limit` of them. */
export async function placeInTop(exec: Executor, key: TopKey, limit: number): Promise<number> {
  // Constants, not a join: the planner then walks the index between the keys instead of from the top.
  const [place] = await sqlRows(
    exec,
    sql<{ above: number }>`SELECT count(*)::int AS above FROM (
          SELECT 1 FROM pictures WHERE (total_amount, created_at, id) > ${topKey(key)} AND removed_at IS NULL
          LIMIT ${limit}) a`,
  );
  return place?.above ?? limit;
}

/** The pictures between two keys of the top index (the ones a payment lifted a picture past), best first. */
export async function picturesBetween(
  exec: Executor,
  above: TopKey,
  below: TopKey,
  limit: number,
): Promise<{ id: number; authorId: number }[]> {
  const found = await sqlRows(
    exec,
    sql<Columns<typeof pictures, 'id' | 'author_id'>>`SELECT id, author_id FROM pictures
        WHERE (total_amount, created_at, id) < ${topKey(above)} AND (total_amount, created_at, id) > ${topKey(below)}
          AND removed_at IS NULL
        ORDER BY total_amount DESC, created_at DESC, id DESC LIMIT ${limit}`,
  );
  return found.map((r) => ({ id: r.id, authorId: r.author_id }));
}

export async function countComment(exec: Executor, pictureId: number): Promise<void> {
  await exec.execute(sql`UPDATE pictures SET comment_count = comment_count + 1 WHERE id = ${pictureId}`);
}

/** Comments shown on a picture changed by `delta` (a moderator removed or restored some). */
export async function adjustCommentCount(exec: Executor, pictureId: number, delta: number): Promise<void> {
  await exec.execute(
    sql`UPDATE pictures SET comment_count = greatest(0, comment_count + ${delta}) WHERE id = ${pictureId}`,
  );
}

/** A picture for a moderator's decision, removed or not: its author and title. */
export async function pictureForModeration(
  exec: Executor,
  id: number,
): Promise<{ authorId: number; title: string; removed: boolean } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof pictures, 'author_id' | 'title'> & { removed: boolean }
    >`SELECT author_id, title, removed_at IS NOT NULL AS removed FROM pictures WHERE id = ${id}`,
  );
  return row && { authorId: row.author_id, title: row.title, removed: row.removed };
}

/** Removes (a time) or restores (null) a picture; answers whether it changed. */
export async function setRemoved(exec: Executor, id: number, at: Date | null): Promise<boolean> {
  const changed = await sqlRows(
    exec,
    sql<Columns<typeof pictures, 'id'>>`UPDATE pictures SET removed_at = ${at}
        WHERE id = ${id} AND (removed_at IS NULL) = ${at !== null} RETURNING id`,
  );
  return changed.length > 0;
}
