import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useHydrated } from '../../../hooks/useHydrated';
import { OFFLINE_TEXT, useOnline } from '../../../hooks/useOnline';
import { useWall, type WallKey } from '../api/pictures';
import { usePictureLive } from '../lib/cache';
import { keepFollowedInPlace } from '../lib/follow';
import { PictureCard } from './PictureCard';
import '../pictures.css';

interface WallProps {
  wallKey: WallKey;
  /** The place in the list the wall starts at (the `index` or `img` parameter). */
  start: number;
  browsing: string;
  empty: ReactNode;
  /** Called when `start` is past the end of the list, so the page can start over at the first picture. */
  onStartMissing?: () => void;
}

/**
 * A ranked list loaded in batches (3, then 2 at a time) below and above the starting picture as the user scrolls,
 * with 'Loading...' at both ends (in a card-sized frame until the first batch is there). When a batch is added
 * above, the page scrolls by its height so what the user is looking at does not move. Fund messages re-rank the
 * loaded pictures in place.
 */
export function Wall({ wallKey, start, browsing, empty, onStartMissing }: WallProps) {
  const query = useWall(wallKey, start);
  usePictureLive();
  const online = useOnline();
  // Hydrating the painted page: only its first card is there (the rest follows in the next render, below it).
  const whole = useHydrated();
  const { data, hasNextPage, hasPreviousPage, isFetchingNextPage, isFetchingPreviousPage, isPending, isError } = query;
  const { fetchNextPage, fetchPreviousPage } = query;
  const pages = data?.pages ?? [];
  const firstOffset = pages[0]?.offset ?? start;
  const pictures = pages.flatMap((p) => p.items);
  const list = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ id: string; top: number } | null>(null);

  const startMissing = !isPending && start > 0 && pages.length === 1 && pages[0]!.items.length === 0;
  useEffect(() => {
    if (startMissing) onStartMissing?.();
  }, [startMissing, onStartMissing]);

  // A new observer reports at once whether its target is visible, so a short list keeps loading until it fills.
  useEffect(() => {
    const watch = (el: HTMLElement | null, load: () => void) => {
      if (!el) return undefined;
      const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), {
        rootMargin: '300px 0px',
      });
      observer.observe(el);
      return observer;
    };
    const below = hasNextPage && !isFetchingNextPage ? watch(bottom.current, () => void fetchNextPage()) : undefined;
    const above =
      hasPreviousPage && !isFetchingPreviousPage
        ? watch(top.current, () => {
            const first = list.current?.querySelector<HTMLElement>('[data-testid="picture-card"]');
            anchor.current = first ? { id: first.dataset.pictureId!, top: first.getBoundingClientRect().top } : null;
            void fetchPreviousPage();
          })
        : undefined;
    return () => {
      below?.disconnect();
      above?.disconnect();
    };
  }, [
    hasNextPage,
    hasPreviousPage,
    isFetchingNextPage,
    isFetchingPreviousPage,
    pages.length,
    fetchNextPage,
    fetchPreviousPage,
  ]);

  useLayoutEffect(() => {
    const kept = anchor.current;
    if (!kept) return;
    anchor.current = null;
    const el = list.current?.querySelector<HTMLElement>(`[data-picture-id="${kept.id}"]`);
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - kept.top);
  }, [firstOffset]);

  // A re-rank moves the cards; the one the user just funded stays where it was on the screen (lib/follow.ts).
  const order = pictures.map((p) => p.id).join(',');
  useLayoutEffect(() => keepFollowedInPlace(list.current), [order]);

  const scrollTo = (i: number) =>
    list.current
      ?.querySelector<HTMLElement>(`[data-index="${i}"]`)
      ?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  if (isError && pictures.length === 0) {
    return <p className="muted">{online ? 'The pictures could not be loaded.' : OFFLINE_TEXT}</p>;
  }
  if (!isPending && pictures.length === 0 && !hasPreviousPage && !startMissing) return <>{empty}</>;
  if (isPending) {
    // A card-sized frame where the first card will be, so nothing moves when the batch arrives: it is replaced, and
    // the bottom edge is new then (keys keep React from reusing one node for the other).
    return (
      <div className="wall" ref={list}>
        <div ref={top} className="wall__edge" aria-hidden="true" />
        <div key="placeholder" className="picture-card wall__placeholder">
          <p className="loading">Loading...</p>
        </div>
      </div>
    );
  }
  return (
    <div className="wall" ref={list}>
      <div ref={top} className="wall__edge" aria-hidden={!(hasPreviousPage || isFetchingPreviousPage)}>
        {(hasPreviousPage || isFetchingPreviousPage) && <p className="loading">Loading...</p>}
      </div>
      {(whole ? pictures : pictures.slice(0, 1)).map((p, i) => {
        const index = firstOffset + i;
        return (
          <PictureCard
            key={p.id}
            picture={p}
            sort={wallKey.sort}
            index={index}
            priority={index === start}
            browsing={browsing}
            onPrevious={index > 0 ? () => scrollTo(index - 1) : undefined}
            onNext={
              i < pictures.length - 1
                ? () => scrollTo(index + 1)
                : hasNextPage
                  ? () => void fetchNextPage().then(() => requestAnimationFrame(() => scrollTo(index + 1)))
                  : undefined
            }
          />
        );
      })}
      {whole && (
        <div key="bottom" ref={bottom} className="wall__edge">
          {(hasNextPage || isFetchingNextPage) && <p className="loading">Loading...</p>}
        </div>
      )}
    </div>
  );
}
