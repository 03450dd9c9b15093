import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Fairness, Opening, Rotation } from '../../../../../common/api/lootboxes';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/** Everything an opening changes on the fairness side: the nonce and the list of openings. */
export const fairnessRoot = ['lootboxes', 'fairness'] as const;

export const fetchFairness = (): Promise<Fairness> => api<Fairness>('/api/lootbox/fairness');

/** The committed server seed's hash, the client seed and the next opening's nonce. */
export const fairnessQuery = queryOptions({
  queryKey: [...fairnessRoot, 'current'] as const,
  queryFn: fetchFairness,
  staleTime: 30_000,
});

/** The fairness calls are a signed-in user's own: none is made for a visitor. */
export const useFairness = () => useQuery({ ...fairnessQuery, enabled: useLoggedIn() });

/** An opening (in another tab too) moves the nonce and adds to the openings: every box opened lowers lootBoxCount. */
export function useFairnessFollowsOpenings(): void {
  const client = useQueryClient();
  useLiveChannel('lootBoxCount', () => void client.invalidateQueries({ queryKey: fairnessRoot }), useLoggedIn());
}

export const OPENINGS_PAGE = 20;

export function fetchOpenings(limit: number, before?: number): Promise<Opening[]> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before !== undefined) query.set('before', String(before));
  return api<Opening[]>(`/api/lootbox/openings?${query}`);
}

export const openingsRoot = [...fairnessRoot, 'openings'] as const;

/** The newest `pages` pages of openings, read one after the other (each page's cursor is the last id of the one before). */
export async function fetchOpeningPages(pages: number): Promise<{ openings: Opening[]; more: boolean }> {
  const openings: Opening[] = [];
  for (let i = 0; i < pages; i++) {
    const page = await fetchOpenings(OPENINGS_PAGE, openings.at(-1)?.id);
    openings.push(...page);
    if (page.length < OPENINGS_PAGE) return { openings, more: false };
  }
  return { openings, more: true };
}

/**
 * The user's openings, newest first, a page at a time. All the pages shown are read again when they change (a
 * rotation reveals their seed), as an infinite query would; a plain query keeps TanStack's infinite-query code out of
 * the wall's chunks (see hooks/useAction.ts).
 */
export function useOpenings() {
  const [pages, setPages] = useState(1);
  const query = useQuery({
    queryKey: [...openingsRoot, pages] as const,
    queryFn: () => fetchOpeningPages(pages),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: useLoggedIn(),
  });
  return {
    ...query,
    openings: query.data?.openings ?? [],
    hasMore: query.data?.more ?? false,
    loadingMore: query.isPlaceholderData,
    loadMore: () => setPages((n) => n + 1),
  };
}

/**
 * The items of the last two openings, as they were when the lootboxes page opened: the page's "previous loot"
 * starts from them (openings made on the page are added by the page itself, so this is read once per visit).
 */
export const recentLootQuery = queryOptions({
  queryKey: ['lootboxes', 'recent-loot'] as const,
  queryFn: async () => (await fetchOpenings(2)).flatMap((o) => o.lootSequence),
  staleTime: Infinity,
  gcTime: 0,
});

export const useRecentLoot = () => useQuery({ ...recentLootQuery, enabled: useLoggedIn() });

export const setClientSeed = (clientSeed: string): Promise<Fairness> =>
  api<Fairness>('/api/lootbox/fairness', { method: 'PUT', body: { clientSeed } });

export function useSetClientSeed() {
  const client = useQueryClient();
  return useAction(async (clientSeed: string) => {
    const fairness = await setClientSeed(clientSeed);
    client.setQueryData(fairnessQuery.queryKey, fairness);
    return fairness;
  });
}

export const rotateSeed = (): Promise<Rotation> => api<Rotation>('/api/lootbox/fairness/rotate', { body: {} });

/** Reveals the seed in use (every opening made with it becomes checkable) and commits to a new one. */
export function useRotateSeed() {
  const client = useQueryClient();
  return useAction(async () => {
    const rotation = await rotateSeed();
    client.setQueryData(fairnessQuery.queryKey, {
      serverSeedHash: rotation.serverSeedHash,
      clientSeed: rotation.clientSeed,
      nonce: rotation.nonce,
    });
    void client.invalidateQueries({ queryKey: openingsRoot });
    return rotation;
  });
}
