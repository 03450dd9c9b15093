import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Picture, WallSort } from '../../../../../common/api/pictures';
import { FIRST_BATCH, NEXT_BATCH, wallBatchPath } from '../../../../../common/wall';
import { api } from '../../../lib/api';

/** Which list a wall shows: a profile wall also names its author. */
export interface WallKey {
  sort: WallSort;
  authorId?: number;
}

export interface PageParam {
  offset: number;
  limit: number;
}

export interface WallPage {
  offset: number;
  limit: number;
  items: Picture[];
}

export const fetchPictures = (key: WallKey, page: PageParam): Promise<Picture[]> =>
  api<Picture[]>(wallBatchPath({ ...key, ...page }));

export const fetchPicture = (id: number): Promise<Picture> => api<Picture>(`/api/pictures/${id}`);

/** Every cached list or picture: what a change to many pictures at once (an author's face) refreshes. */
export const picturesRoot = ['pictures'] as const;
export const wallKeyRoot = [...picturesRoot, 'wall'] as const;

/**
 * A wall is one infinite query that grows both ways from its starting place (the `index` or `img` parameter):
 * batches of 2 are added below the last one and above the first one as the user scrolls.
 */
export function wallQuery(key: WallKey, start: number) {
  return infiniteQueryOptions({
    queryKey: [...wallKeyRoot, key.sort, key.authorId ?? null, start] as const,
    queryFn: async ({ pageParam }): Promise<WallPage> => ({ ...pageParam, items: await fetchPictures(key, pageParam) }),
    initialPageParam: { offset: start, limit: FIRST_BATCH } as PageParam,
    getNextPageParam: (last) =>
      last.items.length < last.limit ? undefined : { offset: last.offset + last.items.length, limit: NEXT_BATCH },
    getPreviousPageParam: (first) =>
      first.offset <= 0
        ? undefined
        : { offset: Math.max(0, first.offset - NEXT_BATCH), limit: Math.min(NEXT_BATCH, first.offset) },
    staleTime: 30_000,
  });
}

/**
 * The top wall's first batch the server wrote into a painted page (docs/decisions.md "Issue 28: the wall painted by
 * the server"), put in the cache before the first render, so that render is the painted page (React hydrates it)
 * instead of a frame that waits for the batch. Only on the wall's top, where the server paints; answers whether it
 * took one.
 */
export function takePaintedBatch(client: QueryClient): boolean {
  const el = document.getElementById('wall-first-batch');
  if (!el) return false;
  el.remove();
  const search = new URLSearchParams(location.search);
  if (location.pathname !== '/' || search.has('img') || search.has('index')) return false;
  let items: Picture[];
  try {
    items = JSON.parse(el.textContent ?? '') as Picture[];
  } catch {
    return false;
  }
  if (!Array.isArray(items) || items.length === 0) return false;
  const { queryKey, initialPageParam } = wallQuery({ sort: 'top' }, 0);
  client.setQueryData(queryKey, { pages: [{ ...initialPageParam, items }], pageParams: [initialPageParam] });
  return true;
}

export const useWall = (key: WallKey, start: number, enabled = true) =>
  useInfiniteQuery({ ...wallQuery(key, start), enabled });

export const pictureQuery = (id: number) =>
  queryOptions({
    queryKey: [...picturesRoot, 'one', id] as const,
    queryFn: () => fetchPicture(id),
    staleTime: 30_000,
    retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
  });

export const usePicture = (id: number) =>
  useQuery({ ...pictureQuery(id), enabled: Number.isSafeInteger(id) && id > 0 });

/** Where a picture sits in a list: for `img=`, the wall starts there. */
export async function findPlace(key: WallKey, pictureId: number, scan = 100): Promise<number | undefined> {
  const list = await fetchPictures(key, { offset: 0, limit: scan });
  const i = list.findIndex((p) => p.id === pictureId);
  return i < 0 ? undefined : i;
}

/** How many of one's own pictures the profile-picture grid offers: the server's largest page. */
export const OWN_PICTURES_LIMIT = 100;

export const ownPicturesQuery = (authorId: number) =>
  queryOptions({
    queryKey: [...picturesRoot, 'own', authorId] as const,
    queryFn: () => fetchPictures({ sort: 'profile', authorId }, { offset: 0, limit: OWN_PICTURES_LIMIT }),
  });

/** One's own pictures, newest author payment first; waits until the signed-in user is known. */
export const useOwnPictures = (authorId: number | undefined) =>
  useQuery({ ...ownPicturesQuery(authorId ?? 0), enabled: authorId !== undefined });

/**
 * Takes a picture out of every cached wall and own-pictures list (a removed picture: docs/product.md#moderation). A
 * wall batch that loses it counts one less against its limit, so the next batch starts where the server's list now
 * does; the neighbours the detail page moves to are asked again.
 */
export function dropPicture(client: QueryClient, id: number): void {
  for (const [key, data] of client.getQueriesData<InfiniteData<WallPage>>({ queryKey: wallKeyRoot })) {
    if (!data?.pages.some((page) => page.items.some((p) => p.id === id))) continue;
    client.setQueryData<InfiniteData<WallPage>>(key, {
      ...data,
      pages: data.pages.map((page) => {
        const items = page.items.filter((p) => p.id !== id);
        return items.length === page.items.length ? page : { ...page, items, limit: page.limit - 1 };
      }),
    });
  }
  for (const [key, list] of client.getQueriesData<Picture[]>({ queryKey: [...picturesRoot, 'own'] })) {
    if (list?.some((p) => p.id === id))
      client.setQueryData(
        key,
        list.filter((p) => p.id !== id),
      );
  }
  void client.invalidateQueries({ queryKey: [...picturesRoot, 'neighbours'] });
}
