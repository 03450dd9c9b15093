import { Link } from '../../../lib/router';
import type { ItemDetails } from '../../../../../common/api/items';
import { formatMoney } from '../../../../../common/money';
import { ItemIcon, RarityLabel } from '../../../components/ui/ItemIcon';
import type { ItemField } from '../lib/fields';
import { detailPath, type ItemsView } from '../lib/sort';

const price = (cents: number | null) => (cents === null ? '—' : formatMoney(cents));

/** One item of the inventory or the store: tapping it opens its detail. */
export function ItemTile({ item, view, fields }: { item: ItemDetails; view: ItemsView; fields: readonly ItemField[] }) {
  const show = (f: ItemField) => fields.includes(f);
  return (
    <li className="item-tile" data-testid="item-tile" data-item={item.itemType}>
      <Link to={detailPath(item.itemType, view)} className="item-tile__link">
        <ItemIcon itemType={item.itemType} size={52} />
        <span className="item-tile__name">{item.name}</span>
        {show('rarity') && <RarityLabel rarity={item.rarity} />}
        <dl className="item-tile__fields">
          {show('owned') && (
            <div>
              <dt>Owned</dt>
              <dd data-field="owned">{item.user.quantity}</dd>
            </div>
          )}
          {show('market') && (
            <div>
              <dt>On market</dt>
              <dd data-field="market">{item.market.quantity}</dd>
            </div>
          )}
          {show('sellOffer') && (
            <div>
              <dt>Sell offer</dt>
              <dd data-field="sellOffer">{price(item.market.bestSo)}</dd>
            </div>
          )}
          {show('buyOffer') && (
            <div>
              <dt>Buy offer</dt>
              <dd data-field="buyOffer">{price(item.market.bestBo)}</dd>
            </div>
          )}
        </dl>
      </Link>
    </li>
  );
}
