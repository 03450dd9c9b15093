import { itemName } from '../../../../../common/items';
import { ItemIcon } from '../../../components/ui/ItemIcon';

/** The last items found, newest first (docs/product.md#lootboxes: the last 10 are kept). */
export function PreviousLoot({ items }: { items: readonly string[] }) {
  return (
    <section className="lootbox-card" aria-labelledby="previous-loot-title">
      <h2 id="previous-loot-title">Previous loot</h2>
      {items.length === 0 ? (
        <p className="muted">Nothing yet: the items of the boxes you open will show here.</p>
      ) : (
        <ul className="previous-loot" data-testid="previous-loot">
          {items.map((code, i) => (
            <li key={`${i}-${code}`} className="previous-loot__item" data-item={code} title={itemName(code)}>
              <ItemIcon itemType={code} size={40} label={itemName(code)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
