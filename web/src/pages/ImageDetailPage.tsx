import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from '../lib/router';
import { CommentsPane } from '../features/comments/components/CommentsPane';
import { useNeighbours, type Neighbour } from '../features/pictures/api/neighbours';
import { usePicture, type WallKey } from '../features/pictures/api/pictures';
import { AuthorLink } from '../features/pictures/components/AuthorLink';
import { ImageNotFound } from '../features/pictures/components/ImageNotFound';
import { FireBadge } from '../features/pictures/components/Badges';
import { Chevron, pictureLabel } from '../features/pictures/components/PictureCard';
import { PictureImage } from '../features/pictures/components/PictureImage';
import { PAGE_SIZES } from '../features/pictures/lib/page-sizes';
import { PriceTag } from '../features/pictures/components/PriceTag';
import { usePictureLive } from '../features/pictures/lib/cache';
import { useSwipe } from '../features/pictures/lib/hooks';
import { useRemovedPicture } from '../features/moderation/api/moderation';
import { useProfile } from '../features/users/api/profile';
import { openPopup, popupIsOpen } from '../lib/popups';
import { useLoggedIn } from '../lib/session';
import '../features/pictures/pictures.css';

const LISTS = new Set(['top', 'trending', 'profile']);

/**
 * One picture at /image/{browsing}/{id}: browsing names the list the arrows and swipes move through (top, trending
 * or the author's profile); /image/detail/{id} shows the picture alone. Moving replaces the history entry.
 */
export default function ImageDetailPage() {
  const { browsing = 'detail', id: rawId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(rawId);
  const { data: picture, isPending, isError } = usePicture(id);
  const { data: me } = useProfile();
  const loggedIn = useLoggedIn();
  const removed = useRemovedPicture(id);
  usePictureLive();
  const hint = /^\d{1,7}$/.test(params.get('index') ?? '') ? Number(params.get('index')) : undefined;
  const listKey: WallKey | undefined =
    !LISTS.has(browsing) || !picture
      ? undefined
      : browsing === 'profile'
        ? { sort: 'profile', authorId: picture.authorId }
        : { sort: browsing as 'top' | 'trending' };
  const { data: around } = useNeighbours(listKey, id, hint);
  const [media, setMedia] = useState<HTMLDivElement | null>(null);

  const go = (n: Neighbour | undefined) => {
    if (n) navigate(`/image/${browsing}/${n.id}?index=${n.index}`, { replace: true });
  };
  useSwipe(media, (direction) => go(direction === 'left' ? around?.next : around?.previous), popupIsOpen);

  // Removed by a moderator while shown (docs/product.md#moderation-screens).
  if (removed) {
    return (
      <section className="page stack" aria-labelledby="removed-title">
        <h1 id="removed-title">Picture removed</h1>
        <p role="status">This picture was removed.</p>
        <div>
          <Link to="/" className="button">
            Back to the wall
          </Link>
        </div>
      </section>
    );
  }
  if (isPending && Number.isSafeInteger(id)) return <p className="loading">Loading...</p>;
  if (isError || !picture) {
    return <ImageNotFound />;
  }
  const back =
    listKey?.sort === 'profile' ? `/profile/${picture.authorId}` : browsing === 'trending' ? '/trending' : '/';
  const backIndex = around && listKey?.sort !== 'profile' ? `?index=${around.index}` : '';
  return (
    <article className="detail" aria-labelledby="detail-title">
      <div className="detail__bar">
        <Link to={`${back}${backIndex}`} className="button" aria-label="Back to the list">
          <Chevron left /> Back
        </Link>
        <h1 id="detail-title" className="wall-page__title">
          {pictureLabel(picture)}
        </h1>
        <AuthorLink id={picture.authorId} name={picture.authorName} imageUrl={picture.authorProfileUrl} />
        <FireBadge picture={picture} />
        <PriceTag picture={picture} />
      </div>
      <div className="detail__media" ref={setMedia}>
        <PictureImage picture={picture} alt={pictureLabel(picture)} sizes={PAGE_SIZES} priority />
        {around?.previous && (
          <button
            type="button"
            className="card-arrow card-arrow--left"
            aria-label="Previous picture"
            onClick={() => go(around.previous)}
          >
            <Chevron left />
          </button>
        )}
        {around?.next && (
          <button
            type="button"
            className="card-arrow card-arrow--right"
            aria-label="Next picture"
            onClick={() => go(around.next)}
          >
            <Chevron />
          </button>
        )}
      </div>
      <div className="row">
        {me?.id === picture.authorId && (
          <Link to={`/image/share/${picture.id}`} className="button button--primary">
            share picture
          </Link>
        )}
        {me?.id !== picture.authorId && (
          <button
            type="button"
            className="button"
            onClick={() =>
              openPopup(
                loggedIn ? { kind: 'reportMessage', type: 'PICTURE', messageId: picture.id } : { kind: 'signIn' },
              )
            }
          >
            Report
          </button>
        )}
      </div>
      <CommentsPane key={picture.id} picture={picture} />
    </article>
  );
}
