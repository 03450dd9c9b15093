import type { Picture } from '../../../../common/api/pictures';
import { trendingScore, type EarlierPurchases } from '../../../../common/trending';
import { faceUrl, imageUrl, variantKey, type VariantFormat } from '../../storage/storage';
import { isoTime } from '../../../../common/time';
import type { PictureRow } from './pictures.repository';

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
    authorProfileUrl: r.author_profile_key ? faceUrl(r.author_profile_key, r.author_profile_widths) : null,
    url: imageUrl(r.image_key),
    title: r.title,
    width: r.width,
    height: r.height,
    sources: sourcesOf(r),
    placeholder: r.placeholder,
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

/**
 * The `srcset` of each format: AVIF and WebP at every variant width; JPEG at the widths below the base file's, then
 * the base file itself at its own width (variants never exceed the file: image.ts `variantWidthsFor`).
 */
function sourcesOf(r: PictureRow): Picture['sources'] {
  const widths = r.variant_widths;
  if (!widths || widths.length === 0) return null;
  const list = (format: VariantFormat) => widths.map((w) => `${imageUrl(variantKey(r.image_key, w, format))} ${w}w`);
  const jpeg = widths.filter((w) => w < r.width).map((w) => `${imageUrl(variantKey(r.image_key, w, 'jpeg'))} ${w}w`);
  jpeg.push(`${imageUrl(r.image_key)} ${r.width}w`);
  return { avif: list('avif').join(', '), webp: list('webp').join(', '), jpeg: jpeg.join(', ') };
}
