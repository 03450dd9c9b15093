import { BlockedWords } from '../../../../common/api/moderation';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { blockedWords, setBlockedWords } from './blocked-words.service';

/** The admin's list of blocked words (docs/product.md#blocks). */
export async function blockedWordRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['admin'];

  app.get(
    '/api/admin/blocked-words',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'The blocked words: a comment, reply, chat message or nickname with one is refused',
        operationId: 'getBlockedWords',
        tags,
        response: { 200: BlockedWords, 401: Message, 403: Message },
      },
    },
    async () => ({ words: await blockedWords(ctx) }),
  );

  app.put(
    '/api/admin/blocked-words',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Replace the blocked words (stored trimmed, lower-case, each once)',
        operationId: 'setBlockedWords',
        tags,
        body: BlockedWords,
        response: { 200: BlockedWords, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req) => ({ words: await setBlockedWords(ctx, req.body.words) }),
  );
}
