import { MAX_LOOTBOXES } from '../../../common/lootboxes';
import { Link, useSearchParams } from '../lib/router';
import { KeyShop } from '../features/lootboxes/components/KeyShop';
import { LootboxStage } from '../features/lootboxes/components/LootboxStage';
import { RarityBars } from '../features/lootboxes/components/RarityBars';
import { maxRowsOf } from '../features/lootboxes/lib/rows';
import '../features/lootboxes/lootboxes.css';

/** docs/product.md#lootboxes: the chances, key purchase, the chest with open and skip, and the previous loot. */
export default function LootboxesPage() {
  const [params] = useSearchParams();
  const maxRows = maxRowsOf(params.get('maxLootboxesDisplayed'), MAX_LOOTBOXES);
  return (
    <section className="lootboxes" aria-labelledby="lootboxes-title">
      <header className="lootbox-card lootboxes__head">
        <div>
          <h1 id="lootboxes-title">Lootboxes</h1>
          <p className="muted lootboxes__intro">A box is free; a key opens it. Each box holds 5 letters or emojis.</p>
        </div>
        <Link to="/lootboxes/fairness" className="lootboxes__fair-link">
          Provably fair: check your openings →
        </Link>
      </header>
      {/* The chest comes first, so the reveal is in view without scrolling; keys and chances sit under it. */}
      <LootboxStage maxRows={maxRows}>
        <div className="lootboxes__top">
          <KeyShop />
          <RarityBars />
        </div>
      </LootboxStage>
    </section>
  );
}
