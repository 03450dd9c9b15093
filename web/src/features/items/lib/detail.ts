export type DetailTab = 'SELL' | 'BUY' | 'DETAILS';
export const DETAIL_TABS: DetailTab[] = ['SELL', 'BUY', 'DETAILS'];

/** docs/product.md#item-detail: it opens on DETAILS for graph, SELL for my-items, otherwise BUY. */
export const firstTab = (type: string | undefined): DetailTab =>
  type === 'graph' ? 'DETAILS' : type === 'my-items' ? 'SELL' : 'BUY';

/** Where the back arrow goes when there is no page of this site to go back to. */
export const backPath = (type: string | undefined): string => (type === 'my-items' ? '/my-items' : '/item-store');
