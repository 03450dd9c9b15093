import type { ItemDetails } from '../../../../../common/api/items';
import { BuyTab } from './BuyTab';
import { DetailsTab } from './DetailsTab';
import { SellTab } from './SellTab';
import '../market.css';

/** The item detail's market tabs: SELL, BUY and DETAILS (the graphs). */
export function MarketPanel({ tab, item }: { tab: 'SELL' | 'BUY' | 'DETAILS'; item: ItemDetails }) {
  switch (tab) {
    case 'SELL':
      return <SellTab item={item} />;
    case 'BUY':
      return <BuyTab item={item} />;
    case 'DETAILS':
      return <DetailsTab item={item} />;
  }
}
