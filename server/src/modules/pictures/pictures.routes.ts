import type { App, AppContext } from '../../context';
import type { WorkDeps } from '../../db/unit-of-work';
import { notFound } from '../../http/errors';
import { idempotent } from '../../http/idempotency';
import { localStorageFor } from '../../storage/local-disk';
import type { Storage } from '../../storage/storage';
import { requireUser } from '../auth/session';
import {
  FieldErrors,
  FundBody,
  IdParams,
  ImageParams,
  ListQuery,
  Message,
  Missing,
  Picture,
  ProfileImageAnswer,
  ProfileImageQuery,
  UrlAnswer,
} from './pictures.schemas';
import {
  createPicture,
  fundPicture,
  getPicture,
  listPictures,
  picturePagePath,
  prepareUpload,
  readUploadForm,
  setOwnProfileImage,
} from './pictures.service';
import { PageCache } from './page-cache';
import { startTrendingRefresh } from './ranking';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The wall: lists, detail, upload and funding (SPEC §7), the stored images, and choosing one's profile picture. */
export async function pictureRoutes(
  app: App,
  ctx: AppContext,
  storage: Storage = localStorageFor(ctx.config.dataDir),
): Promise<void> {
  const deps: WorkDeps = { db: ctx.db, bus: ctx.bus, onPublishError: (err) => ctx.log.error({ err }, 'publish') };
  const pages = new PageCache<Picture[]>(ctx.config.wallCacheMs, () => ctx.now().getTime());
  const stopClearing = ctx.bus.subscribe((event) => event.ch === 'picture' && pages.clear());

  app.get(
    '/api/pictures',
    { schema: { querystring: ListQuery, response: { 200: { type: 'array', items: Picture }, 400: FieldErrors } } },
    async (req) => listPictures(ctx, pages, req.query),
  );

  app.get(
    '/api/pictures/:id',
    { schema: { params: IdParams, response: { 200: Picture, 400: FieldErrors, 404: Message } } },
    async (req) => getPicture(ctx, Number(req.params.id)),
  );

  app.post(
    '/api/payment/checkout-with-image-upload',
    { schema: { response: { 200: UrlAnswer, 400: FieldErrors, 401: Message, 402: Missing } } },
    async (req, reply) => {
      const user = requireUser(req);
      const upload = await prepareUpload(storage, await readUploadForm(req));
      // The multipart body is never parsed into req.body; the key's request hash is taken over this fingerprint.
      (req as { body: unknown }).body = upload.fingerprint;
      const answer = await idempotent(deps, req, user.id, async (work) => {
        const id = await createPicture(work, ctx.now(), user.id, upload);
        return { statusCode: 200, body: { url: picturePagePath(id) } };
      });
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  app.post(
    '/api/payment/checkout-with-image-fund',
    {
      schema: {
        body: FundBody,
        response: { 200: Picture, 400: FieldErrors, 401: Message, 402: Missing, 404: Message },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { imageId, amount } = req.body;
      const answer = await idempotent(deps, req, user.id, async (work) => ({
        statusCode: 200,
        body: await fundPicture(work, ctx.now(), { userId: user.id, pictureId: imageId, amount }),
      }));
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  // SPEC §7 leaves the method open ("PUT or PATCH"); both do the same. GET of this path is the users module's.
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/user/profile',
      schema: {
        querystring: ProfileImageQuery,
        response: { 200: ProfileImageAnswer, 400: FieldErrors, 401: Message, 403: Message, 404: Message },
      },
      handler: async (req) => {
        const profileImageUrl = await setOwnProfileImage(ctx, requireUser(req).id, Number(req.query.imageId));
        pages.clear(); // cards show the author's face
        return { profileImageUrl };
      },
    });
  }

  app.get('/images/:key', { schema: { params: ImageParams } }, async (req, reply) => {
    const file = await storage.get(req.params.key);
    if (!file) throw notFound('Image not found');
    return reply.type(file.contentType).header('cache-control', IMMUTABLE).send(file.bytes);
  });

  const stop = startTrendingRefresh(ctx.db, ctx.now, (err) => ctx.log.error({ err }, 'trending refresh'));
  app.addHook('onClose', async () => {
    stopClearing();
    await stop();
  });
}
