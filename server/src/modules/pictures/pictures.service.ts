import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { rows } from '../../db/connection';
import type { Work } from '../../db/unit-of-work';
import { fieldError, forbidden, notFound } from '../../http/errors';
import { spend } from '../../ledger/commands';
import type { Storage } from '../../storage/storage';
import { processUpload } from './image';
import {
  authorOf,
  pictureById,
  picturesByIds,
  picturesPage,
  profileImageUrlOf,
  setProfileImage,
} from './pictures.repository';
import { DEFAULT_PAGE, MAX_OFFSET, MAX_PAGE, MAX_PICTURE_CENTS, MAX_TITLE, type Picture } from './pictures.schemas';
import type { PageCache } from './page-cache';
import { addPurchase } from './purchases';
import { profilePage, topPage, trendingIds } from './ranking';

export type Sort = 'top' | 'trending' | 'profile';

export interface ListInput {
  sort?: Sort;
  authorId?: string;
  offset?: string;
  limit?: string;
}

export async function listPictures(ctx: AppContext, cache: PageCache<Picture[]>, q: ListInput): Promise<Picture[]> {
  const sort = q.sort ?? 'top';
  const offset = Number(q.offset ?? 0);
  const limit = Number(q.limit ?? DEFAULT_PAGE);
  if (offset > MAX_OFFSET) throw fieldError('offset', `The offset is at most ${MAX_OFFSET}.`);
  if (limit < 1 || limit > MAX_PAGE) throw fieldError('limit', `The limit is 1 to ${MAX_PAGE}.`);
  if (sort === 'profile' && q.authorId === undefined) {
    throw fieldError('authorId', 'Say whose profile to list (authorId).');
  }
  const authorId = sort === 'profile' ? Number(q.authorId) : 0;
  return cache.get(`${sort}:${authorId}:${offset}:${limit}`, async () => {
    const page = { offset, limit };
    const now = ctx.now();
    if (sort === 'trending') return picturesByIds(ctx.db, await trendingIds(ctx.db, page, now), now);
    const { ids, order } = sort === 'top' ? topPage(page) : profilePage(authorId, page);
    return picturesPage(ctx.db, ids, order, now);
  });
}

export async function getPicture(ctx: AppContext, id: number): Promise<Picture> {
  const picture = Number.isSafeInteger(id) ? await pictureById(ctx.db, id, ctx.now()) : undefined;
  if (!picture) throw notFound('Image not found');
  return picture;
}

/** The page a new picture opens on (SPEC §2 route table: image detail outside any wall). */
export const picturePagePath = (id: number) => `/image/detail/${id}`;

/** Whole cents above zero with at most six digits of dollars, from a form field. */
export function parseAmountField(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') throw fieldError('amount', 'Enter a price.');
  const text = raw.trim();
  if (!/^\d{1,9}$/.test(text)) throw fieldError('amount', 'The price must be a whole number of cents.');
  const amount = Number(text);
  if (amount < 1) throw fieldError('amount', 'The price must be above 0.');
  if (amount > MAX_PICTURE_CENTS) throw fieldError('amount', 'The price can have at most 6 digits of dollars.');
  return amount;
}

export interface UploadForm {
  file: Buffer | undefined;
  amount: string | undefined;
  title: string | undefined;
}

/** Reads the multipart form; a file over the plugin's size limit is refused with the spec's own words. */
export async function readUploadForm(req: FastifyRequest): Promise<UploadForm> {
  if (!req.isMultipart()) throw fieldError('file', 'Send the picture as multipart/form-data.');
  const form: UploadForm = { file: undefined, amount: undefined, title: undefined };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !form.file) form.file = await part.toBuffer();
        else part.file.resume();
      } else if (part.fieldname === 'amount' || part.fieldname === 'title') {
        form[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fieldError('file', 'Image too large.');
    throw err;
  }
  if (!form.file) throw fieldError('file', 'Choose an image.');
  return form;
}

export interface PreparedUpload {
  amount: number;
  title: string;
  key: string;
  width: number;
  height: number;
  /** What makes two uploads the same request, for Idempotency-Key: the file's bytes and the form's fields. */
  fingerprint: { amount: number; title: string; fileSha256: string };
}

/**
 * Checks the form and stores the re-encoded file before any money moves. If the payment then fails, the file stays
 * in storage without a picture: harmless (content-addressed, reused by a retry) and left for a cleanup job.
 */
export async function prepareUpload(storage: Storage, form: UploadForm): Promise<PreparedUpload> {
  const amount = parseAmountField(form.amount);
  const title = (form.title ?? '').trim();
  if (title.length > MAX_TITLE) throw fieldError('title', `A title has at most ${MAX_TITLE} characters.`);
  const image = await processUpload(form.file!);
  const key = await storage.put(image.hash, image.bytes, image.contentType);
  const fileSha256 = createHash('sha256').update(form.file!).digest('hex');
  return { amount, title, key, width: image.width, height: image.height, fingerprint: { amount, title, fileSha256 } };
}

/** The upload price is the picture's first purchase: the picture exists only if the charge succeeds. */
export async function createPicture(work: Work, now: Date, userId: number, upload: PreparedUpload): Promise<number> {
  const at = now.toISOString();
  const [created] = await rows<{ id: number }>(
    work.tx,
    sql`INSERT INTO pictures (author_id, title, image_key, width, height, total_amount, purchase_count,
          created_at, last_author_payment, trending_score, trending_at)
        VALUES (${userId}, ${upload.title}, ${upload.key}, ${upload.width}, ${upload.height}, ${upload.amount}, 1,
          ${at}::timestamptz, ${at}::timestamptz, 1000.0::float8 * ${upload.amount}, ${at}::timestamptz)
        RETURNING id`,
  );
  const pictureId = created!.id;
  const { entryId } = await spend(work, {
    userId,
    amount: upload.amount,
    kind: 'IMAGE',
    resourceId: String(pictureId),
  });
  await addPurchase(work, {
    pictureId,
    authorId: userId,
    payerId: userId,
    amount: upload.amount,
    now,
    entryId,
    first: true,
  });
  return pictureId;
}

export async function fundPicture(
  work: Work,
  now: Date,
  input: { userId: number; pictureId: number; amount: number },
): Promise<Picture> {
  // The schema bounds both, but ajv turns a string like "1e400" into Infinity before checking.
  if (!Number.isSafeInteger(input.amount)) throw fieldError('amount', 'The amount must be a whole number of cents.');
  if (!Number.isSafeInteger(input.pictureId)) throw fieldError('imageId', 'Unknown picture.');
  const picture = await authorOf(work.tx, input.pictureId);
  if (!picture) throw notFound('Image not found');
  const { entryId } = await spend(work, {
    userId: input.userId,
    amount: input.amount,
    kind: 'IMAGE',
    resourceId: String(input.pictureId),
  });
  await addPurchase(work, {
    pictureId: input.pictureId,
    authorId: picture.authorId,
    payerId: input.userId,
    amount: input.amount,
    now,
    entryId,
  });
  return (await pictureById(work.tx, input.pictureId, now))!;
}

/** Only one's own pictures can be one's face (SPEC §2 "Set profile picture"). */
export async function setOwnProfileImage(ctx: AppContext, userId: number, pictureId: number): Promise<string> {
  const picture = Number.isSafeInteger(pictureId) ? await authorOf(ctx.db, pictureId) : undefined;
  if (!picture) throw notFound('Image not found');
  if (picture.authorId !== userId) throw forbidden('Only your own pictures can be your profile picture.');
  await setProfileImage(ctx.db, userId, pictureId);
  return (await profileImageUrlOf(ctx.db, userId))!;
}
