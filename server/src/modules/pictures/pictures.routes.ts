import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import {
  FundAnswer,
  FundBody,
  IdParams,
  ImageParams,
  ListQuery,
  Picture,
  PictureList,
  UploadAnswer,
  UploadFields,
} from '../../../../common/api/pictures';
import { FieldErrors, ImageFileAnswer, Message, Missing, NoBody } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { HttpError, notFound } from '../../http/errors';
import { sendPaid } from '../../http/idempotency';
import { etagMatches, etagOf, STORAGE_KEY } from '../../storage/storage';
import { fundPicture } from './pictures.commands';
import {
  createUploadedPicture,
  getPicture,
  imageWithheld,
  picturePagePath,
  prepareUpload,
  readUploadForm,
  wallPage,
} from './pictures.service';
import { presentPicture } from './pictures.presenter';
import { PageCache } from './page-cache';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Uploads per signed-in user per minute (UPLOAD_RATE_LIMIT, 0: no limit), counted before the body is read: each
 * attempt, paid or refused, costs a decode and re-encode. Visitors are not counted; they are refused with 401.
 */
function uploadLimit(perMinute: number): { rateLimit?: RateLimitOptions } {
  if (perMinute === 0) return {};
  return {
    rateLimit: {
      max: perMinute,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => `upload:${req.user?.id ?? 0}`,
      allowList: (req: FastifyRequest) => !req.user,
      // The same rounding as the Retry-After header the plugin sends beside it.
      errorResponseBuilder: (_req: FastifyRequest, limit: { ttl: number }) => {
        const seconds = Math.max(1, Math.ceil(limit.ttl / 1000));
        return new HttpError(429, {
          message: `Too many uploads. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
        });
      },
    },
  };
}

/** The wall: lists, detail, upload and funding (docs/product.md#wall), and the stored images. */
export async function pictureRoutes(app: App, ctx: AppContext): Promise<void> {
  const { storage } = ctx;
  const pages = new PageCache<Buffer>(ctx.config.wallCacheMs, () => ctx.now().getTime());
  // Any event of the picture channel, from any instance, changed what a page shows.
  const stopClearing = ctx.bus.subscribe((event) => event.ch === 'picture' && pages.clear());
  app.addHook('onClose', async () => stopClearing());

  app.get(
    '/api/pictures',
    {
      config: { auth: 'public' },
      schema: {
        summary: "A page of the wall: top, trending, or one author's pictures",
        operationId: 'listPictures',
        tags: ['pictures'],
        querystring: ListQuery,
        response: { 200: PictureList, 400: FieldErrors },
      },
    },
    async (req, reply) => {
      const page = wallPage(ctx, req.query);
      // The database wrote the page's JSON (pictures.repository.ts `wallPageText`), and it is kept as its bytes:
      // Fastify sends bytes as they are, past the schema's serializer, so a cached page costs nothing but the write.
      const bytes = await pages.get(page.key, async () => Buffer.from(await page.read(ctx.now())));
      return reply.type('application/json; charset=utf-8').send(bytes as unknown as Picture[]);
    },
  );

  app.get(
    '/api/pictures/:id',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'One picture with its purchases',
        operationId: 'getPicture',
        tags: ['pictures'],
        params: IdParams,
        response: { 200: Picture, 400: FieldErrors, 404: Message },
      },
    },
    async (req) => {
      const now = ctx.now();
      return presentPicture(await getPicture(ctx, Number(req.params.id)), now);
    },
  );

  app.post(
    '/api/payment/checkout-with-image-upload',
    {
      config: { ...uploadLimit(ctx.config.uploadRateLimit), auth: 'member' },
      schema: {
        summary: 'Put a picture on the wall at a price (a multipart form)',
        operationId: 'uploadPicture',
        tags: ['pictures'],
        consumes: ['multipart/form-data'],
        form: UploadFields,
        response: { 200: UploadAnswer, 400: FieldErrors, 401: Message, 402: Missing, 429: Message },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const upload = await prepareUpload(await readUploadForm(req));
      // The multipart body is never parsed into req.body; the key's request hash is taken over this fingerprint.
      (req as { body: unknown }).body = upload.fingerprint;
      return sendPaid(ctx, req, reply, user.id, async (work) => ({
        url: picturePagePath(await createUploadedPicture(work, storage, ctx.now(), user.id, upload)),
      }));
    },
  );

  app.post(
    '/api/payment/checkout-with-image-fund',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Pay money onto a picture',
        operationId: 'fundPicture',
        tags: ['pictures'],
        body: FundBody,
        response: { 200: FundAnswer, 400: FieldErrors, 401: Message, 402: Missing, 404: Message },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { imageId, amount } = req.body;
      const now = ctx.now();
      return sendPaid(ctx, req, reply, user.id, async (work) =>
        presentPicture(await fundPicture(work, now, { userId: user.id, pictureId: imageId, amount }), now),
      );
    },
  );

  app.get(
    '/images/:key',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'A stored image file',
        operationId: 'getImage',
        tags: ['pictures'],
        params: ImageParams,
        response: {
          200: ImageFileAnswer('The stored image: a base JPEG, or one of its variants (AVIF, WebP or JPEG)'),
          302: NoBody('IMAGE_BASE_URL is set: the image is at Location (a CDN or public bucket)'),
          304: NoBody("The browser's copy (If-None-Match) is the stored image"),
          404: Message,
          503: Message,
        },
      },
    },
    async (req, reply) => {
      const { key } = req.params;
      if (!STORAGE_KEY.test(key)) throw notFound('Image not found');
      // Removed by a moderator: gone from every list, and its file and variants with it (docs/product.md#moderation).
      if (await imageWithheld(ctx, key)) throw notFound('Image not found');
      // A CDN or public bucket serves the bytes (IMAGE_BASE_URL); the app only points there. Not cached for good,
      // so a changed IMAGE_BASE_URL takes effect within the hour.
      if (ctx.config.imageBaseUrl) {
        return reply.header('cache-control', 'public, max-age=3600').redirect(`${ctx.config.imageBaseUrl}/${key}`, 302);
      }
      const etag = etagOf(key);
      // The browser's copy is still right when the image is still there (the name is the content's hash).
      if (etagMatches(req.headers['if-none-match'], etag)) {
        if (!(await storage.exists(key))) throw notFound('Image not found');
        return reply.code(304).header('etag', etag).header('cache-control', IMMUTABLE).send(null);
      }
      const file = await storage.open(key);
      if (!file) throw notFound('Image not found');
      reply.type(file.contentType).header('etag', etag).header('cache-control', IMMUTABLE);
      if (file.length !== undefined) reply.header('content-length', file.length);
      // A stream goes out as it arrives from the bucket; the reply's schema knows only the bytes' type.
      return reply.send(file.body as Uint8Array);
    },
  );
}
