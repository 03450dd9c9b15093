import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from '../lib/router';
import { findPlace, type WallKey } from '../features/pictures/api/pictures';
import { Wall } from '../features/pictures/components/Wall';
import { useSwipe } from '../features/pictures/lib/hooks';
import { popupIsOpen } from '../lib/popups';

const TOP: WallKey = { sort: 'top' };
const TRENDING: WallKey = { sort: 'trending' };

/** The `index` parameter counts only as a whole number from 0 (docs/product.md#wall); past the end the wall starts over. */
const parseIndex = (raw: string | null): number | undefined =>
  raw !== null && /^\d{1,7}$/.test(raw) ? Number(raw) : undefined;

/** The TOP and TRENDING walls. A swipe left on TOP opens TRENDING and a swipe right on TRENDING goes home. */
export default function WallPage() {
  const trending = useLocation().pathname.startsWith('/trending');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const wallKey = trending ? TRENDING : TOP;
  const img = parseIndex(params.get('img'));
  const [start, setStart] = useState<number | undefined>(() =>
    img === undefined ? (parseIndex(params.get('index')) ?? 0) : undefined,
  );
  const [root, setRoot] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (img === undefined) return;
    let live = true;
    void findPlace(wallKey, img)
      .catch(() => undefined)
      .then((place) => live && setStart(place ?? 0));
    return () => {
      live = false;
    };
  }, [img, wallKey]);

  useSwipe(
    root,
    (direction) => {
      if (!trending && direction === 'left') navigate('/trending');
      if (trending && direction === 'right') navigate('/');
    },
    popupIsOpen,
  );
  const startOver = useCallback(() => setStart(0), []);

  return (
    <section ref={setRoot} className="wall-page" aria-labelledby="wall-title">
      <h1 id="wall-title" className="wall-page__title">
        {trending ? 'Trending wall' : 'Top wall'}
      </h1>
      {start === undefined ? (
        <p className="loading">Loading...</p>
      ) : (
        <Wall
          key={`${wallKey.sort}:${start}`}
          wallKey={wallKey}
          start={start}
          browsing={wallKey.sort}
          empty={<p className="muted wall-empty">No pictures yet. Be the first to upload one.</p>}
          onStartMissing={startOver}
        />
      )}
    </section>
  );
}
