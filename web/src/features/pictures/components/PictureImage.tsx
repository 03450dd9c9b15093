import { useLayoutEffect, useRef, useState } from 'react';
import type { ImageEvents } from '../../../lib/load-order';
import type { Picture } from '../../../../../common/api/pictures';
import { usePlaceholder } from '../lib/placeholder';

/** The wall card's `sizes` (common/wall.ts); the other pages' sizes are in ../lib/page-sizes.ts, out of the wall's first load. */
export { WALL_SIZES } from '../../../../../common/wall';

const CONTENTS = { display: 'contents' } as const;

export interface PictureImageProps extends ImageEvents {
  picture: Pick<Picture, 'url' | 'sources' | 'placeholder' | 'width' | 'height'>;
  alt: string;
  sizes: string;
  /** The page's largest paint: fetched at once and first. Otherwise the image waits until it is near the screen. */
  priority?: boolean;
  className?: string;
}

/**
 * A picture in the best format the browser takes (AVIF, WebP, else JPEG) at the width it is drawn at, with its
 * ThumbHash painted behind it until it has loaded. A picture from before variants has its one JPEG (`url`).
 */
export function PictureImage({ picture, alt, sizes, priority, className, onLoad, onError }: PictureImageProps) {
  const [loaded, setLoaded] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // The file whose load was reported: the check at mount and the event may both see one load.
  const seen = useRef<string | null>(null);
  const loadedNow = (el: HTMLImageElement) => {
    if (seen.current === el.currentSrc) return;
    seen.current = el.currentSrc;
    setLoaded(true);
    onLoad?.(el);
  };
  // An image already in when React meets it (the painted page's, hydrated: docs/decisions.md "Issue 28: the wall
  // painted by the server") fired its load event before React listened.
  useLayoutEffect(() => {
    const el = img.current;
    if (el?.complete && el.naturalWidth > 0) loadedNow(el);
    // Once, at mount: later loads are the element's own events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const blur = usePlaceholder(picture.placeholder);
  const { sources } = picture;
  return (
    // The <picture> only chooses the file: its <img> is laid out as if it stood alone, so every page's img rules hold.
    <picture style={CONTENTS}>
      {sources && <source type="image/avif" srcSet={sources.avif} sizes={sizes} />}
      {sources && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
      <img
        ref={img}
        className={className}
        src={picture.url}
        srcSet={sources?.jpeg}
        sizes={sources ? sizes : undefined}
        alt={alt}
        width={picture.width}
        height={picture.height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
        style={blur && !loaded ? { backgroundImage: `url("${blur}")`, backgroundSize: 'cover' } : undefined}
        onLoad={(e) => loadedNow(e.currentTarget)}
        onError={onError}
      />
    </picture>
  );
}
