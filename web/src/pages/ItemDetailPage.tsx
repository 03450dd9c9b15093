import { useParams } from '../lib/router';
import { ItemDetail } from '../features/items/components/ItemDetail';

/** /items-detail/{itemType}/{type}: type is graph, my-items or item-store, and picks the first tab. */
export default function ItemDetailPage() {
  const { itemType = '', type } = useParams();
  return <ItemDetail key={`${itemType}/${type}`} itemType={itemType} type={type} />;
}
