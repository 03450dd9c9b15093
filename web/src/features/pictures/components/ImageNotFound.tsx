import { Link } from '../../../lib/router';

/** What the detail and share pages show for an unknown or missing picture (docs/product.md#wall: 'Image not found'). */
export function ImageNotFound() {
  return (
    <section className="page">
      <h1>Image not found</h1>
      <Link to="/">Back to the wall</Link>
    </section>
  );
}
