import { useParams } from '../lib/router';
import { ItemDetail } from '../features/items/components/ItemDetail';
import { MarketPanel } from '../features/market/components/MarketPanel';
import { useMarketLive } from '../features/market/lib/cache';

/** /items-detail/{itemType}/{type}: type is graph, my-items or item-store, and picks the first tab. */
export default function ItemDetailPage() {
  const { itemType = '', type } = useParams();
  useMarketLive();
  return (
    <ItemDetail
      key={`${itemType}/${type}`}
      itemType={itemType}
      type={type}
      panel={(tab, item) => <MarketPanel tab={tab} item={item} />}
    />
  );
}
