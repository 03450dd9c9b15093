import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { fieldError, HttpError, notFound } from '../../http/errors';
import { containsNul, NUL_TEXT } from '../../http/input';
import { FORMAT_TYPES, keyOf, type Storage } from '../../storage/storage';
import type { Work } from '../../db/unit-of-work';
import { encodeExtras, processUpload, type ProcessedImage } from './image';
import { DEFAULT_PAGE, MAX_OFFSET, MAX_PAGE, MAX_TITLE, type ListQuery } from '../../../../common/api/pictures';
import { parseUploadAmount } from '../../../../common/upload-rules';
import { uploadPicture, type ReadyUpload } from './pictures.commands';
import {
  authorOf,
  adjustCommentCount as adjustCommentCountRow,
  countComment as countCommentRow,
  pictureForModeration as pictureForModerationRow,
  setRemoved as setPictureRemovedRow,
  imageKeysInUse as keysInUse,
  onlyRemovedShow,
  pictureById,
  wallPageText,
  type PictureRow,
} from './pictures.repository';
import * as ranking from './ranking.repository';

/**
 * A page of the wall asked for: the key its answer is kept under in the page cache, and its answer at a moment (the
 * trending order and the presented scores are of that moment), as the JSON text of `Picture[]`.
 */
export function wallPage(ctx: AppContext, q: ListQuery): { key: string; read(now: Date): Promise<string> } {
  const sort = q.sort ?? 'top';
  const offset = Number(q.offset ?? 0);
  const limit = Number(q.limit ?? DEFAULT_PAGE);
  if (offset > MAX_OFFSET) throw fieldError('offset', `The offset is at most ${MAX_OFFSET}.`);
  if (limit < 1 || limit > MAX_PAGE) throw fieldError('limit', `The limit is 1 to ${MAX_PAGE}.`);
  if (sort === 'profile' && q.authorId === undefined) {
    throw fieldError('authorId', 'Say whose profile to list (authorId).');
  }
  const authorId = sort === 'profile' ? Number(q.authorId) : 0;
  const page = { offset, limit };
  return {
    key: `${sort}:${authorId}:${offset}:${limit}`,
    async read(now) {
      const db = ctx.reads.lagTolerant();
      // The ids first (a walk of one index), then the cards by id: one statement for every page, so PostgreSQL
      // plans the join once per connection (pictures.repository.ts `wallPageText`).
      const ids =
        sort === 'trending'
          ? await ranking.trendingIds(db, page, now)
          : await ranking.pageIds(db, sort === 'top' ? ranking.topPage(page) : ranking.profilePage(authorId, page));
      return wallPageText(db, ids, now);
    },
  };
}

export async function getPicture(ctx: AppContext, id: number): Promise<PictureRow> {
  const picture = Number.isSafeInteger(id) ? await pictureById(ctx.reads.lagTolerant(), id) : undefined;
  if (!picture) throw notFound('Image not found');
  return picture;
}

/** The page a new picture opens on (docs/product.md#routes: image detail outside any wall). */
export const picturePagePath = (id: number) => `/image/detail/${id}`;

/** The price in cents from its form field: whole dollars, digits only (common/upload-rules.ts, docs/product.md#upload). */
export function parseAmountField(raw: string | undefined): number {
  const parsed = parseUploadAmount(raw);
  if ('error' in parsed) throw fieldError('amount', parsed.error);
  return parsed.cents;
}

export interface UploadForm {
  file: Buffer | undefined;
  amount: string | undefined;
  title: string | undefined;
}

/**
 * Reads the multipart form; a file over the plugin's size limit is refused with the product's own words (docs/product.md#upload). A form that
 * cannot be read (no boundary, cut off before its end, too many parts) is the sender's mistake: 400, nothing stored.
 */
export async function readUploadForm(req: FastifyRequest): Promise<UploadForm> {
  if (!req.isMultipart()) throw fieldError('file', 'Send the picture as multipart/form-data.');
  const form: UploadForm = { file: undefined, amount: undefined, title: undefined };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !form.file) form.file = await part.toBuffer();
        else part.file.resume();
      } else if (part.fieldname === 'amount' || part.fieldname === 'title') {
        const value = String(part.value);
        if (containsNul(value)) throw fieldError(part.fieldname, NUL_TEXT);
        form[part.fieldname] = value;
      }
    }
  } catch (err) {
    throw unreadableForm(err);
  }
  if (!form.file) throw fieldError('file', 'Choose an image.');
  return form;
}

/** What went wrong reading a multipart form, as a 400 on the field concerned. */
function unreadableForm(err: unknown): Error {
  if (err instanceof HttpError) return err;
  const { code, statusCode } = err as { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fieldError('file', 'Image too large.');
  if (code === 'FST_FILES_LIMIT') return fieldError('file', 'Send one picture at a time.');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return fieldError('body', 'The form has too many fields.');
  // The plugin's own 5xx are bugs of ours; everything else (busboy's "Boundary not found", "Unexpected end of form",
  // a connection closed mid-upload) is a body that did not arrive as a whole form.
  if (statusCode !== undefined && statusCode >= 500) return err as Error;
  return fieldError('file', 'The upload did not arrive whole. Choose the picture and send it again.');
}

export interface PreparedUpload extends ReadyUpload {
  /** The re-encoded file, stored only once its picture is paid for (`createUploadedPicture`). */
  image: ProcessedImage;
  /** What makes two uploads the same request, for Idempotency-Key: the file's bytes and the form's fields. */
  fingerprint: { amount: number; title: string; fileSha256: string };
}

/**
 * Checks the form and re-encodes the file with its variants and placeholder, in memory: nothing is stored and no
 * money moves yet (the encoding's cost: docs/decisions.md "Issue 28, item 4: responsive images").
 */
export async function prepareUpload(form: UploadForm): Promise<PreparedUpload> {
  const amount = parseAmountField(form.amount);
  const title = (form.title ?? '').trim();
  if (title.length > MAX_TITLE) throw fieldError('title', `A title has at most ${MAX_TITLE} characters.`);
  const image = await processUpload(form.file!);
  const key = keyOf(image.hash, image.contentType);
  const fileSha256 = createHash('sha256').update(form.file!).digest('hex');
  return {
    amount,
    title,
    key,
    width: image.width,
    height: image.height,
    variantWidths: image.variantWidths,
    placeholder: image.placeholder,
    image,
    fingerprint: { amount, title, fileSha256 },
  };
}

/**
 * Creates the picture, charges its price, and stores its file, in that order and inside the transaction: a refused
 * charge (402) throws before anything is written, and the file is on disk before the picture commits. So a paid
 * picture never lacks its file; the one thing that can go wrong the other way (the commit fails after the write)
 * leaves a file no picture uses, which is harmless (named by its content, so a retry writes the same file) and
 * removed by the orphan image job (server/src/jobs/orphan-images.job.ts).
 */
export async function createUploadedPicture(
  work: Work,
  storage: Storage,
  now: Date,
  userId: number,
  upload: PreparedUpload,
): Promise<number> {
  const id = await uploadPicture(work, now, userId, upload);
  await storeImage(storage, upload.image);
  return id;
}

/**
 * Stores a processed image: its base file and every variant, side by side; answers the base key. Every write is
 * waited for before a failure is thrown, so each has cleaned up after itself (a full disk leaves no partial file).
 */
export async function storeImage(storage: Storage, image: ProcessedImage): Promise<string> {
  const [base, ...variants] = await Promise.allSettled([
    storage.put(image.hash, image.bytes, image.contentType),
    ...image.variants.map((v) => storage.put(v.name, v.bytes, FORMAT_TYPES[v.format])),
  ]);
  const failed = [base!, ...variants].find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return (base as PromiseFulfilledResult<string>).value;
}

/** A JPEG made on the server (the demo seed's), with its variants and placeholder, ready for `storeImage`. */
export async function imageWithExtras(image: {
  bytes: Buffer;
  hash: string;
  width: number;
  height: number;
}): Promise<ProcessedImage> {
  return { ...image, contentType: 'image/jpeg', ...(await encodeExtras(image.bytes, image.hash, image.width)) };
}

/** Which of these storage keys a picture uses, for the orphan image job. */
export function imageKeysInUse(exec: Executor, keys: readonly string[]): Promise<Set<string>> {
  return keysInUse(exec, keys);
}

/** Who made a picture, for the checks of other domains (a profile picture must be one's own). */
export async function pictureAuthor(ctx: AppContext, pictureId: number): Promise<{ authorId: number } | undefined> {
  return Number.isSafeInteger(pictureId) ? authorOf(ctx.db, pictureId) : undefined;
}

/** Whether an image file is withheld: every picture it shows was removed by a moderator (docs/product.md#moderation). */
export function imageWithheld(ctx: AppContext, imageKey: string): Promise<boolean> {
  return onlyRemovedShow(ctx.reads.current(), imageKey);
}

/** Makes the trending order of the first pages exact again; the trending job runs it, on one instance at a time. */
export function refreshTrending(exec: Executor, now: Date): Promise<number> {
  return ranking.refreshTrending(exec, now);
}

/** The author of a picture, in a command's transaction (comments); undefined when there is no such picture. */
export async function pictureAuthorIn(exec: Executor, pictureId: number): Promise<number | undefined> {
  return Number.isSafeInteger(pictureId) ? (await authorOf(exec, pictureId))?.authorId : undefined;
}

/** A comment or a reply was written on the picture (`commentCount` counts both, docs/product.md#comments). */
export async function countComment(exec: Executor, pictureId: number): Promise<void> {
  await countCommentRow(exec, pictureId);
}

/** Comments shown on the picture changed by `delta` (a moderator removed or restored some, docs/product.md#moderation). */
export async function adjustCommentCount(exec: Executor, pictureId: number, delta: number): Promise<void> {
  if (delta !== 0) await adjustCommentCountRow(exec, pictureId, delta);
}

/** A picture for a moderator's decision (docs/product.md#moderation), removed or not. */
export function pictureForModeration(exec: Executor, pictureId: number) {
  return pictureForModerationRow(exec, pictureId);
}

/**
 * A moderator removes (`at`) or restores (null) a picture (docs/product.md#moderation): removed, it leaves every list,
 * the rankings and its own page; its purchases stay in the books. Answers whether it changed.
 */
export function setPictureRemoved(exec: Executor, pictureId: number, at: Date | null): Promise<boolean> {
  return setPictureRemovedRow(exec, pictureId, at);
}
