import { lazy, Suspense } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useTradeData } from '../api/trade-data';
import { LockedGraphs } from './LockedGraphs';

// Chart.js comes with the graphs only: no other screen, and not the wall's first load, carries it.
const TradeCharts = lazy(() => import('./TradeCharts'));

/** DETAILS: the item's price graphs, once unlocked; 'Item was not traded yet' before its first trade. */
export function DetailsTab({ item }: { item: ItemDetails }) {
  const { data, isPending, isError, refetch } = useTradeData(item.itemType);
  return (
    <div className="market-tab">
      <h2>Trades of {item.name}</h2>
      {isPending ? (
        <p className="loading">Loading...</p>
      ) : isError ? (
        <LoadFailed text="The trades could not be loaded." onRetry={() => void refetch()} />
      ) : data === null ? (
        <LockedGraphs />
      ) : data.lastTenTrades.length === 0 ? (
        <p className="market-tab__empty">Item was not traded yet</p>
      ) : (
        <Suspense fallback={<p className="loading">Loading...</p>}>
          <TradeCharts data={data} />
        </Suspense>
      )}
    </div>
  );
}
