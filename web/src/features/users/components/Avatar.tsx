import { useCachedImage } from '../../../lib/image-cache';

/** A user's face, from the image cache; the default avatar while it loads or when there is none. */
export function Avatar({ url, size = 36, alt = '' }: { url: string | null | undefined; size?: number; alt?: string }) {
  const src = useCachedImage(url);
  return <img className="avatar" src={src} width={size} height={size} alt={alt} />;
}
