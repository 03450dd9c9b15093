import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Picture, WallKey } from './types';

/** SPEC §9: the first batch holds 3 pictures, each later one 2. */
export const FIRST_BATCH = 3;
export const NEXT_BATCH = 2;

export interface PageParam {
  offset: number;
  limit: number;
}

export interface WallPage {
  offset: number;
  limit: number;
  items: Picture[];
}

export function fetchPictures(key: WallKey, page: PageParam): Promise<Picture[]> {
  const q = new URLSearchParams({ sort: key.sort, offset: String(page.offset), limit: String(page.limit) });
  if (key.authorId !== undefined) q.set('authorId', String(key.authorId));
  return api<Picture[]>(`/api/pictures?${q}`);
}

export const fetchPicture = (id: number): Promise<Picture> => api<Picture>(`/api/pictures/${id}`);

export const wallKeyRoot = ['pictures', 'wall'] as const;

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

export const useWall = (key: WallKey, start: number, enabled = true) =>
  useInfiniteQuery({ ...wallQuery(key, start), enabled });

export const pictureQuery = (id: number) =>
  queryOptions({
    queryKey: ['pictures', 'one', id] as const,
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
