import { blockedWordMatcher, blockedWordText, normalizeBlockedWords } from '../../../../common/blocked-words';
import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
import * as repo from './blocked-words.repository';

/*
 * Blocked words (docs/product.md#blocks): a comment, reply, chat message or nickname containing one is refused with
 * 400 before anything is charged. The list is read at most once per BLOCKED_WORDS_TTL_MS per instance; a change
 * reaches this instance at once and the others within that time (docs/decisions.md, "Issue 26: suspension guard,
 * blocks, blocked words").
 */

/** How long an instance keeps the list it read. */
export const BLOCKED_WORDS_TTL_MS = 5_000;

interface Cached {
  readAt: number;
  words: string[];
  match: (text: string) => string | null;
}
const caches = new WeakMap<AppContext, Cached>();

async function current(ctx: AppContext): Promise<Cached> {
  const now = ctx.now().getTime();
  const cached = caches.get(ctx);
  if (cached && now - cached.readAt < BLOCKED_WORDS_TTL_MS && now >= cached.readAt) return cached;
  const words = await repo.listWords(ctx.reads.current());
  const fresh = { readAt: now, words, match: blockedWordMatcher(words) };
  caches.set(ctx, fresh);
  return fresh;
}

/** GET /api/admin/blocked-words: the list as stored (read afresh). */
export function blockedWords(ctx: AppContext): Promise<string[]> {
  return repo.listWords(ctx.db);
}

/** PUT /api/admin/blocked-words: the list becomes these words, trimmed, lower-case, each once; answers it as GET. */
export async function setBlockedWords(ctx: AppContext, words: readonly string[]): Promise<string[]> {
  const list = normalizeBlockedWords(words);
  await ctx.transact((work) => repo.replaceWords(work.tx, list, ctx.now()));
  caches.delete(ctx);
  return repo.listWords(ctx.db);
}

/** 400 on `field` when the text contains a blocked word: called before anything is charged. */
export async function refuseBlockedWords(ctx: AppContext, field: string, text: string): Promise<void> {
  const word = (await current(ctx)).match(text);
  if (word !== null) throw fieldError(field, blockedWordText(word));
}
