import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { FundMessage } from '../../../../../common/live';
import { wallKeyRoot, type WallPage } from '../api/pictures';
import type { Picture, WallSort } from '../api/types';
import { applyFund, rerankBatches } from './rank';

type WallData = InfiniteData<WallPage>;

const sortOfKey = (key: readonly unknown[]): WallSort => key[2] as WallSort;

/** Applies `change` to a picture wherever the cache holds it (walls and detail), re-ranking the walls it is on. */
function updateEverywhere(client: QueryClient, id: number, change: (p: Picture) => Picture): boolean {
  let found = false;
  const now = Date.now();
  for (const [key, data] of client.getQueriesData<WallData>({ queryKey: wallKeyRoot })) {
    if (!data || !data.pages.some((page) => page.items.some((p) => p.id === id))) continue;
    found = true;
    const pages = data.pages.map((page) => ({
      ...page,
      items: page.items.map((p) => (p.id === id ? change(p) : p)),
    }));
    client.setQueryData<WallData>(key, { ...data, pages: rerankBatches(pages, sortOfKey(key), now) });
  }
  client.setQueryData<Picture>(['pictures', 'one', id], (old) => {
    if (old) found = true;
    return old && change(old);
  });
  return found;
}

export function replacePicture(client: QueryClient, picture: Picture): void {
  updateEverywhere(client, picture.id, () => picture);
}

/**
 * A live fund message. A picture already on screen moves in place; on a wall that has not loaded it, it may now
 * belong, so those walls are refetched (at most once a second however busy the wall is).
 */
export function applyFundMessage(client: QueryClient, m: FundMessage): void {
  updateEverywhere(client, m.pictureId, (p) => applyFund(p, m));
  missing.add(m.pictureId);
  pending ??= setTimeout(() => {
    const ids = new Set(missing);
    missing.clear();
    pending = undefined;
    void client.invalidateQueries({
      queryKey: wallKeyRoot,
      predicate: (q) => {
        const data = q.state.data as WallData | undefined;
        const loaded = new Set(data?.pages.flatMap((page) => page.items.map((p) => p.id)) ?? []);
        return [...ids].some((id) => !loaded.has(id));
      },
    });
  }, 1_000);
}

const missing = new Set<number>();
let pending: ReturnType<typeof setTimeout> | undefined;
