import { TROPHY_PATH } from '../../../../../common/shell';
import { formatTrending } from '../../../../../common/trending';
import type { Picture, WallSort } from '../../../../../common/api/pictures';
import { useNow } from '../lib/hooks';
import { scoreAt } from '../lib/rank';

/** The place badge of a card: a gold trophy for the first three of the top list, a numbered medal after. */
export function RankBadge({ sort, index, picture }: { sort: WallSort; index: number; picture: Picture }) {
  if (sort === 'trending') return <FireBadge picture={picture} />;
  if (sort !== 'top') return null;
  const place = index + 1;
  if (place <= 3) {
    return (
      <span
        className="rank-badge rank-badge--trophy"
        role="img"
        aria-label={`Place ${place}, trophy`}
        title={`#${place}`}
      >
        <TrophyIcon />
        <span className="rank-badge__number" aria-hidden="true">
          {place}
        </span>
      </span>
    );
  }
  return (
    <span className="rank-badge rank-badge--medal" role="img" aria-label={`Place ${place}`} title={`#${place}`}>
      <span aria-hidden="true">{place}</span>
    </span>
  );
}

/** The fire badge: the trending score, recomputed every second from the served figures (docs/product.md#funding). */
export function FireBadge({ picture }: { picture: Picture }) {
  const now = useNow(1_000);
  const text = formatTrending(scoreAt(picture, now));
  return (
    <span className="fire-badge" role="img" aria-label={`Trending score ${text}`} data-testid="trending-score">
      <FireIcon />
      <span aria-hidden="true">{text}</span>
    </span>
  );
}

export function TrophyIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={TROPHY_PATH} fill="currentColor" />
    </svg>
  );
}

export function FireIcon({ size = 18 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 2c1 3.5 5 5.5 5 10.5A5 5 0 0 1 12 22a5 5 0 0 1-5-5c0-2.6 1.6-4 2.5-5.5.3 1.6 1 2.5 2 3C11 11 11 6 12 2z"
        fill="currentColor"
      />
    </svg>
  );
}
