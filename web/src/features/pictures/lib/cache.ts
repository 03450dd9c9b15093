import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { FundMessage } from '../../../../../common/live';
import { useLiveChannel } from '../../../lib/live';
import { wallKeyRoot, type WallPage } from '../api/pictures';
import type { Picture, WallSort } from '../../../../../common/api/pictures';
import { applyFund, rerankBatches } from './rank';

type WallData = InfiniteData<WallPage>;

const sortOfKey = (key: readonly unknown[]): WallSort => key[2] as WallSort;

/** Applies `change` to a picture wherever the cache holds it (walls and detail), re-ranking the walls it is on. */
function updateEverywhere(client: QueryClient, id: number, change: (p: Picture) => Picture): void {
  const now = Date.now();
  for (const [key, data] of client.getQueriesData<WallData>({ queryKey: wallKeyRoot })) {
    if (!data || !data.pages.some((page) => page.items.some((p) => p.id === id))) continue;
    const pages = data.pages.map((page) => ({
      ...page,
      items: page.items.map((p) => (p.id === id ? change(p) : p)),
    }));
    client.setQueryData<WallData>(key, { ...data, pages: rerankBatches(pages, sortOfKey(key), now) });
  }
  client.setQueryData<Picture>(['pictures', 'one', id], (old) => old && change(old));
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
  const walls = client.getQueriesData<WallData>({ queryKey: wallKeyRoot });
  if (walls.every(([, data]) => data?.pages.some((page) => page.items.some((p) => p.id === m.pictureId)))) return;
  missing.add(m.pictureId);
  // Only an author's own payment can move a picture on their profile.
  authorPaid ||= m.authorFund;
  pending ??= setTimeout(() => {
    const ids = new Set(missing);
    const profilesToo = authorPaid;
    missing.clear();
    authorPaid = false;
    pending = undefined;
    void client.invalidateQueries({
      queryKey: wallKeyRoot,
      predicate: (q) => {
        if (sortOfKey(q.queryKey) === 'profile' && !profilesToo) return false;
        const data = q.state.data as WallData | undefined;
        const loaded = new Set(data?.pages.flatMap((page) => page.items.map((p) => p.id)) ?? []);
        return [...ids].some((id) => !loaded.has(id));
      },
    });
  }, 1_000);
}

const missing = new Set<number>();
let authorPaid = false;
let pending: ReturnType<typeof setTimeout> | undefined;

/** Keeps every shown picture's fund live while the calling view is mounted. */
export function usePictureLive(): void {
  const client = useQueryClient();
  useLiveChannel('picture', (message) => {
    if (message.t === 'fund') applyFundMessage(client, message.m);
  });
}
