import { useState, type ImgHTMLAttributes, type SyntheticEvent } from 'react';
import type { Picture } from '../../../../../common/api/pictures';
import { usePlaceholder } from '../lib/placeholder';

/** The wall card's `sizes` (common/wall.ts); the other pages' sizes are in ../lib/page-sizes.ts, out of the wall's first load. */
export { WALL_SIZES } from '../../../../../common/wall';

const CONTENTS = { display: 'contents' } as const;

type ImageEvents = Pick<ImgHTMLAttributes<HTMLImageElement>, 'onLoad' | 'onError'>;

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
  const blur = usePlaceholder(picture.placeholder);
  const { sources } = picture;
  return (
    // The <picture> only chooses the file: its <img> is laid out as if it stood alone, so every page's img rules hold.
    <picture style={CONTENTS}>
      {sources && <source type="image/avif" srcSet={sources.avif} sizes={sizes} />}
      {sources && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
      <img
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
        onLoad={(e: SyntheticEvent<HTMLImageElement>) => {
          setLoaded(true);
          onLoad?.(e);
        }}
        onError={onError}
      />
    </picture>
  );
}
