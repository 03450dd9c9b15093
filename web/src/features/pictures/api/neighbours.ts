import { useQuery } from '@tanstack/react-query';
import type { Picture } from '../../../../../common/api/pictures';
import { fetchPictures, findPlace, type WallKey } from './pictures';

export interface Neighbour {
  id: number;
  index: number;
}

export interface Neighbours {
  index: number;
  previous?: Neighbour;
  next?: Neighbour;
}

/**
 * The pictures before and after one in its list, for the detail page's arrows and swipes. The page knows the
 * picture's place from its `index` parameter; when that is missing or stale, the place is looked up.
 */
export async function fetchNeighbours(key: WallKey, id: number, hint: number | undefined): Promise<Neighbours | null> {
  const around = async (index: number) => {
    const offset = Math.max(0, index - 1);
    const list = await fetchPictures(key, { offset, limit: 3 });
    const at = list.findIndex((p) => p.id === id);
    return at < 0 ? undefined : toNeighbours(list, offset, at);
  };
  const hinted = hint === undefined ? undefined : await around(hint);
  if (hinted) return hinted;
  const place = await findPlace(key, id);
  return place === undefined ? null : ((await around(place)) ?? null);
}

function toNeighbours(list: Picture[], offset: number, at: number): Neighbours {
  const prev = list[at - 1];
  const next = list[at + 1];
  return {
    index: offset + at,
    previous: prev && { id: prev.id, index: offset + at - 1 },
    next: next && { id: next.id, index: offset + at + 1 },
  };
}

export function useNeighbours(key: WallKey | undefined, id: number, hint: number | undefined) {
  return useQuery({
    queryKey: ['pictures', 'neighbours', key?.sort, key?.authorId ?? null, id, hint ?? null] as const,
    queryFn: () => fetchNeighbours(key!, id, hint),
    enabled: key !== undefined,
    staleTime: 10_000,
  });
}
