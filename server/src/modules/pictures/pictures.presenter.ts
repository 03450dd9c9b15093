import type { Picture } from '../../../../common/api/pictures';
import { trendingScore, type EarlierPurchases } from '../../../../common/trending';
import { imageUrl } from '../../storage/storage';
import { isoTime } from '../../../../common/time';

/** A picture as the lists read it: its row, its author's name and face, and its newest purchases. */
export interface PictureRow {
  id: number;
  author_id: number;
  author_name: string | null;
  author_profile_img_id: number | null;
  author_profile_key: string | null;
  image_key: string;
  title: string;
  width: number;
  height: number;
  comment_count: number;
  last_author_payment: Date | string;
  total_amount: number;
  created_at: Date | string;
  purchase_count: number;
  earlier_amount: number;
  earlier_score: number;
  earlier_at: Date | string | null;
  /** JSON from the database: pglite hands it back parsed, pg as text. */
  purchases: { amount: number; paidOn: string }[] | string;
}

/** The fields that leave the server (docs/product.md#wall, plus the figures the client ranks with). */
export function presentPicture(r: PictureRow, now: Date): Picture {
  const raw = typeof r.purchases === 'string' ? JSON.parse(r.purchases) : r.purchases;
  const purchases = (raw as { amount: number; paidOn: string }[]).map((p) => ({
    amount: Number(p.amount),
    paidOn: isoTime(p.paidOn),
  }));
  const earlier: EarlierPurchases | null =
    r.earlier_amount > 0 && r.earlier_at
      ? { amount: r.earlier_amount, score: r.earlier_score, at: isoTime(r.earlier_at) }
      : null;
  return {
    id: r.id,
    authorId: r.author_id,
    authorName: r.author_name ?? '',
    authorProfileImgId: r.author_profile_img_id,
    authorProfileUrl: r.author_profile_key ? imageUrl(r.author_profile_key) : null,
    url: imageUrl(r.image_key),
    title: r.title,
    width: r.width,
    height: r.height,
    commentCount: r.comment_count,
    lastAuthorPayment: isoTime(r.last_author_payment),
    purchases,
    earlierPurchases: earlier && { count: r.purchase_count - purchases.length, ...earlier, at: String(earlier.at) },
    purchaseCount: r.purchase_count,
    totalAmount: r.total_amount,
    createdOn: isoTime(r.created_at),
    trendingScore: trendingScore(purchases, earlier, now.getTime()),
  };
}
