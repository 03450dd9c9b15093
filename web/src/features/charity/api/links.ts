import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fetchLinksPage, linksPaging } from './page';

export type DonationScope = 'my' | 'public';

const PATHS: Record<DonationScope, string> = {
  my: '/api/charity-link/my-links',
  public: '/api/charity-link/public',
};

/** The signed-in user's links (Pending included), or the public list of decided, publicly visible ones. */
export const donationLinksQuery = (scope: DonationScope) => ({
  queryKey: ['charity', 'links', scope] as const,
  queryFn: ({ pageParam }: { pageParam: number }) => fetchLinksPage(PATHS[scope], pageParam),
  ...linksPaging,
  retry: false,
});

/** docs/product.md#charity: logged, the loading ends and the list stays empty. */
export function useDonationLinks(scope: DonationScope, enabled = true) {
  const query = useInfiniteQuery({ ...donationLinksQuery(scope), enabled });
  useEffect(() => {
    if (query.error) console.warn('donation links failed to load', query.error);
  }, [query.error]);
  return {
    links: query.data?.pages.flat() ?? [],
    loading: enabled && query.isPending && !query.error,
    more: query.hasNextPage ? () => void query.fetchNextPage() : undefined,
    loadingMore: query.isFetchingNextPage,
  };
}
