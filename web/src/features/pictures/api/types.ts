/** A picture as GET /api/pictures serves it (server/src/modules/pictures/pictures.schemas.ts). */
export interface Picture {
  id: number;
  authorId: number;
  authorName: string;
  authorProfileImgId: number | null;
  authorProfileUrl: string | null;
  url: string;
  title: string;
  width: number;
  height: number;
  commentCount: number;
  lastAuthorPayment: string;
  /** The newest purchases, oldest first. */
  purchases: { amount: number; paidOn: string }[];
  /** Older purchases folded into one figure (common/trending.ts). */
  earlierPurchases: { count: number; amount: number; score: number; at: string } | null;
  purchaseCount: number;
  totalAmount: number;
  createdOn: string;
  trendingScore: number;
}

export type WallSort = 'top' | 'trending' | 'profile';

/** Which list a wall shows: a profile wall also names its author. */
export interface WallKey {
  sort: WallSort;
  authorId?: number;
}
