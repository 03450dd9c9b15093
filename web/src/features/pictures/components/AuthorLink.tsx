import { useHydrated } from '../../../hooks/useHydrated';
import { Link } from '../../../lib/router';
import { useCachedImage } from '../../../lib/image-cache';

/** The author's avatar and name, both opening their profile (docs/product.md#wall). */
export function AuthorLink({ id, name, imageUrl }: { id: number; name: string; imageUrl: string | null }) {
  const src = useCachedImage(imageUrl);
  // The painted page's face has no file yet (the default's address is the build's): hydration finds it so.
  const hydrated = useHydrated();
  return (
    <Link className="author-link" to={`/profile/${id}`} aria-label={`${name}'s profile`}>
      <img className="avatar" src={hydrated ? src : undefined} width={32} height={32} alt="" />
      <span className="author-link__name">{name}</span>
    </Link>
  );
}
