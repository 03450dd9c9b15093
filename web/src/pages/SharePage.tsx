import { useEffect } from 'react';
import { useParams } from '../lib/router';
import { usePicture } from '../features/pictures/api/pictures';
import { ImageNotFound } from '../features/pictures/components/ImageNotFound';
import { ShareEditor } from '../features/pictures/components/ShareEditor';
import './SharePage.css';

/**
 * The Share Image page (docs/product.md#share): the picture with four overlays whose transparency is set by sliders. The chosen
 * overlay comes to the front; a click on the picture itself lets go of it. The result is exported as an image and
 * shared where the browser can share files, downloaded otherwise.
 */
export default function SharePage() {
  const id = Number(useParams().imageId);
  const { data: picture, isPending, isError } = usePicture(id);
  const missing = isError || (!isPending && !picture) || !Number.isSafeInteger(id);
  useEffect(() => {
    if (missing) console.warn('Image not found', id);
  }, [missing, id]);
  if (isPending && Number.isSafeInteger(id)) return <p className="loading">Loading...</p>;
  if (missing || !picture) {
    return <ImageNotFound />;
  }
  return <ShareEditor picture={picture} />;
}
