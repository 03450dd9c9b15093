import type { Picture } from '../../../../../common/api/pictures';

/** A time on the tests' fixed day, `minute` minutes after noon UTC. */
export const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
export const now = Date.UTC(2026, 0, 1, 13, 0);

/** A picture with one purchase of `total` cents, paid `paidAtMinute` minutes after noon. */
export function picture(id: number, total: number, paidAtMinute = 0, extra: Partial<Picture> = {}): Picture {
  return {
    id,
    authorId: 1,
    authorName: 'ann',
    authorProfileImgId: null,
    authorProfileUrl: null,
    url: `/images/${id}.jpg`,
    title: '',
    width: 400,
    height: 500,
    sources: null,
    placeholder: null,
    commentCount: 0,
    lastAuthorPayment: at(paidAtMinute),
    purchases: [{ amount: total, paidOn: at(paidAtMinute) }],
    earlierPurchases: null,
    purchaseCount: 1,
    totalAmount: total,
    createdOn: at(paidAtMinute),
    trendingScore: 0,
    ...extra,
  };
}
