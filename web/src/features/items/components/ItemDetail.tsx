import { useState, type ReactNode } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { Link, useNavigate } from '../../../lib/router';
import { itemOf } from '../../../../../common/items';
import { formatMoney } from '../../../../../common/money';
import { ItemIcon, RarityLabel } from '../../../components/ui/ItemIcon';
import { useItemDetails } from '../api/details';
import { DETAIL_TABS, backPath, firstTab, type DetailTab } from '../lib/detail';
import '../items.css';

/**
 * One item: its name, icon, rarity, what the user owns and what the market holds, with the SELL, BUY and DETAILS
 * tabs. What a tab shows is the page's to say (`panel`): the market feature fills them.
 */
export function ItemDetail({
  itemType,
  type,
  panel,
}: {
  itemType: string;
  type: string | undefined;
  panel: (tab: DetailTab, item: ItemDetails) => ReactNode;
}) {
  const navigate = useNavigate();
  const { data: items, isError } = useItemDetails();
  const [tab, setTab] = useState<DetailTab>(() => firstTab(type));
  const catalogue = itemOf(itemType);
  const item = items?.find((i) => i.itemType === itemType);

  if (!catalogue || (items && !item)) {
    return (
      <section className="page">
        <h1>Item not found</h1>
        <Link to="/item-store">Back to the store</Link>
      </section>
    );
  }

  const back = () => {
    // The router numbers its history entries (lib/router.tsx): idx 0 is the first page of this tab.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(backPath(type));
  };
  const loading = item === undefined;
  const value = (text: string | number) => (loading ? (isError ? '?' : '…') : text);

  return (
    <section className="page item-detail" aria-labelledby="item-title">
      <div className="item-detail__head">
        <button type="button" className="item-detail__back desktop-only" aria-label="Back" onClick={back}>
          ←
        </button>
        <ItemIcon itemType={itemType} size={72} />
        <div className="item-detail__title">
          <h1 id="item-title">{catalogue.name}</h1>
          <RarityLabel rarity={catalogue.rarity} />
        </div>
      </div>
      {isError && (
        <p className="form-error" role="alert">
          The item&apos;s figures could not be loaded.
        </p>
      )}
      <dl className="item-detail__figures">
        <div>
          <dt>Owned</dt>
          <dd data-testid="owned">{value(item?.user.quantity ?? 0)}</dd>
        </div>
        <div>
          <dt>On the market</dt>
          <dd data-testid="market-count">{value(item?.market.quantity ?? 0)}</dd>
        </div>
        <div>
          <dt>Market price</dt>
          <dd data-testid="market-price">
            {value(item?.market.bestSo == null ? 'Nobody sells' : formatMoney(item.market.bestSo))}
          </dd>
        </div>
      </dl>

      <div className="tabs" role="tablist" aria-label="Item">
        {DETAIL_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`item-tab-${t}`}
            aria-selected={tab === t}
            aria-controls="item-tab-panel"
            className={tab === t ? 'tabs__tab tabs__tab--active' : 'tabs__tab'}
            onClick={() => setTab(t)}
          >
            {t}
          </button>
        ))}
      </div>
      <div id="item-tab-panel" role="tabpanel" aria-labelledby={`item-tab-${tab}`} className="item-detail__panel">
        {item ? panel(tab, item) : !isError && <p className="loading">Loading...</p>}
      </div>
    </section>
  );
}
