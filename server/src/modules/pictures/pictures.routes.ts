import {
  FundBody,
  IdParams,
  ImageFile,
  ImageParams,
  ListQuery,
  Picture,
  PictureList,
  UploadFields,
} from '../../../../common/api/pictures';
import { FieldErrors, Message, Missing, UrlAnswer } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { notFound } from '../../http/errors';
import { idempotent } from '../../http/idempotency';
import { localStorageFor } from '../../storage/local-disk';
import type { Storage } from '../../storage/storage';
import { fundPicture, uploadPicture } from './pictures.commands';
import { getPicture, listPictures, picturePagePath, prepareUpload, readUploadForm } from './pictures.service';
import { PageCache } from './page-cache';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The wall: lists, detail, upload and funding (SPEC §7), and the stored images. */
export async function pictureRoutes(
  app: App,
  ctx: AppContext,
  storage: Storage = localStorageFor(ctx.config.dataDir),
): Promise<void> {
  const pages = new PageCache<Picture[]>(ctx.config.wallCacheMs, () => ctx.now().getTime());
  // Any event of the picture channel, from any instance, changed what a page shows.
  const stopClearing = ctx.bus.subscribe((event) => event.ch === 'picture' && pages.clear());
  app.addHook('onClose', async () => stopClearing());

  app.get(
    '/api/pictures',
    { schema: { tags: ['pictures'], querystring: ListQuery, response: { 200: PictureList, 400: FieldErrors } } },
    async (req) => listPictures(ctx, pages, req.query),
  );

  app.get(
    '/api/pictures/:id',
    { schema: { tags: ['pictures'], params: IdParams, response: { 200: Picture, 400: FieldErrors, 404: Message } } },
    async (req) => getPicture(ctx, Number(req.params.id)),
  );

  app.post(
    '/api/payment/checkout-with-image-upload',
    {
      schema: {
        tags: ['pictures'],
        consumes: ['multipart/form-data'],
        description: `A multipart form: ${Object.keys(UploadFields.properties).join(', ')}.`,
        response: { 200: UrlAnswer, 400: FieldErrors, 401: Message, 402: Missing },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const upload = await prepareUpload(storage, await readUploadForm(req));
      // The multipart body is never parsed into req.body; the key's request hash is taken over this fingerprint.
      (req as { body: unknown }).body = upload.fingerprint;
      const answer = await idempotent(ctx, req, user.id, async (work) => {
        const id = await uploadPicture(work, ctx.now(), user.id, upload);
        return { statusCode: 200, body: { url: picturePagePath(id) } };
      });
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  app.post(
    '/api/payment/checkout-with-image-fund',
    {
      schema: {
        tags: ['pictures'],
        body: FundBody,
        response: { 200: Picture, 400: FieldErrors, 401: Message, 402: Missing, 404: Message },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { imageId, amount } = req.body;
      const answer = await idempotent(ctx, req, user.id, async (work) => ({
        statusCode: 200,
        body: await fundPicture(work, ctx.now(), { userId: user.id, pictureId: imageId, amount }),
      }));
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  app.get(
    '/images/:key',
    {
      schema: {
        tags: ['pictures'],
        params: ImageParams,
        response: { 200: ImageFile, 404: Message },
      },
    },
    async (req, reply) => {
      const file = await storage.get(req.params.key);
      if (!file) throw notFound('Image not found');
      return reply.type(file.contentType).header('cache-control', IMMUTABLE).send(file.bytes);
    },
  );
}
