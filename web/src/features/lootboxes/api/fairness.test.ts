import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Opening } from '../../../../../common/api/lootboxes';
import { OPENINGS_PAGE, fetchOpeningPages } from './fairness';

/** A server holding `count` openings with ids count…1, answering GET /api/lootbox/openings as docs/product.md#fairness says. */
function serve(count: number) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      const query = new URL(url, 'http://x').searchParams;
      const before = Number(query.get('before') ?? count + 1);
      const limit = Number(query.get('limit'));
      const ids = Array.from({ length: count }, (_, i) => count - i)
        .filter((id) => id < before)
        .slice(0, limit);
      return new Response(JSON.stringify(ids.map((id) => ({ id }) as Opening)), { status: 200 });
    }),
  );
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

describe('the pages of openings', () => {
  it('reads the newest page first, then each older page from the last id shown', async () => {
    const asked = serve(45);
    const { openings, more } = await fetchOpeningPages(2);
    expect(openings.map((o) => o.id)).toEqual(Array.from({ length: 40 }, (_, i) => 45 - i));
    expect(more).toBe(true);
    expect(asked).toEqual([
      `/api/lootbox/openings?limit=${OPENINGS_PAGE}`,
      `/api/lootbox/openings?limit=${OPENINGS_PAGE}&before=26`,
    ]);
  });

  it('stops at a short page and says there is nothing older', async () => {
    const asked = serve(25);
    const { openings, more } = await fetchOpeningPages(3);
    expect(openings).toHaveLength(25);
    expect(more).toBe(false);
    expect(asked).toHaveLength(2);
  });
});
