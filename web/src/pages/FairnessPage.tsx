import { Link } from '../lib/router';
import { OpeningsList } from '../features/lootboxes/components/OpeningsList';
import { SeedPanel } from '../features/lootboxes/components/SeedPanel';
import '../features/lootboxes/lootboxes.css';

/**
 * Provable fairness (docs/product.md#fairness): the seed hash shown before any opening, the client seed, rotation, and every
 * opening recomputed in this browser once its seed is revealed.
 */
export default function FairnessPage() {
  return (
    <section className="fairness" aria-labelledby="fairness-title">
      <header className="lootbox-card">
        <h1 id="fairness-title">Provably fair lootboxes</h1>
        <p className="muted">
          Before you open a box, the server commits to a secret seed by showing its SHA-256 hash. Each opening draws its
          items from that seed, your client seed and the opening&apos;s nonce. Rotate the seed to reveal it: this page
          then recomputes the openings in your browser and checks that nothing was changed.
        </p>
        <Link to="/lootboxes">← Back to the lootboxes</Link>
      </header>
      <SeedPanel />
      <OpeningsList />
    </section>
  );
}
