import { CHEVRON_PATHS } from '../../../../../common/shell';
import { Link } from '../../../lib/router';
import type { Picture, WallSort } from '../../../../../common/api/pictures';
import { useFirstPicture } from '../../../lib/load-order';
import { useTouchScreen } from '../lib/hooks';
import { AuthorLink } from './AuthorLink';
import { RankBadge } from './Badges';
import { PictureImage, WALL_SIZES } from './PictureImage';
import { PriceTag } from './PriceTag';

export interface PictureCardProps {
  picture: Picture;
  sort: WallSort;
  /** The picture's place in its whole list (0 is first). */
  index: number;
  /** Where the image opens: /image/{browsing}/{id}. */
  browsing: string;
  /** The first card on screen: its image is the page's largest paint, so it loads at once and before the faces. */
  priority?: boolean;
  onPrevious?: () => void;
  onNext?: () => void;
}

export const pictureLabel = (p: Picture) => p.title || `Picture by ${p.authorName}`;

/** One picture on a wall: author, place badge, price tag, the image with its arrows, and the comment count. */
export function PictureCard({ picture, sort, index, browsing, priority, onPrevious, onNext }: PictureCardProps) {
  const touch = useTouchScreen();
  const firstPicture = useFirstPicture(priority ?? false);
  const detail = `/image/${browsing}/${picture.id}?index=${index}`;
  return (
    <article
      className={`picture-card${touch ? ' picture-card--touch' : ''}`}
      aria-label={`${pictureLabel(picture)}, place ${index + 1}`}
      data-testid="picture-card"
      data-picture-id={picture.id}
      data-index={index}
    >
      <header className="picture-card__head">
        <RankBadge sort={sort} index={index} picture={picture} />
        <AuthorLink id={picture.authorId} name={picture.authorName} imageUrl={picture.authorProfileUrl} />
        <PriceTag picture={picture} />
      </header>
      <div className="picture-card__media">
        <Link to={detail} aria-label={`Open ${pictureLabel(picture)}`}>
          <PictureImage
            picture={picture}
            alt={pictureLabel(picture)}
            sizes={WALL_SIZES}
            priority={priority}
            {...firstPicture}
          />
        </Link>
        {onPrevious && (
          <button
            type="button"
            className="card-arrow card-arrow--left"
            aria-label="Previous picture"
            onClick={onPrevious}
          >
            <Chevron left />
          </button>
        )}
        {onNext && (
          <button type="button" className="card-arrow card-arrow--right" aria-label="Next picture" onClick={onNext}>
            <Chevron />
          </button>
        )}
      </div>
      {picture.commentCount > 0 && (
        <footer className="picture-card__foot">
          <Link to={detail} className="comment-count" aria-label={`${picture.commentCount} comments`}>
            <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M4 4h16v12H8l-4 4z" fill="currentColor" />
            </svg>
            {picture.commentCount}
          </Link>
        </footer>
      )}
    </article>
  );
}

export function Chevron({ left }: { left?: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={left ? CHEVRON_PATHS.left : CHEVRON_PATHS.right} fill="currentColor" />
    </svg>
  );
}
