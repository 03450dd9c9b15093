import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartOptions,
} from 'chart.js';
import { Line } from 'react-chartjs-2';
import type { TradeData } from '../../../../../common/api/market';
import { formatMoney } from '../../../../../common/money';
import {
  MONTH_LINES,
  dayLabel,
  dayTicks,
  lastTradesSeries,
  monthTooltip,
  monthsSeries,
  tradeTooltip,
  type MonthLine,
} from '../lib/charts';

// Only the parts these two line charts use, so the chunk carries no other chart type.
Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Tooltip, Legend);

const COLOURS: Record<MonthLine, string> = {
  'Average Price': '#0f766e',
  'Min Price': '#2563eb',
  'Max Price': '#b42318',
};

const moneyAxis = {
  beginAtZero: true,
  ticks: { callback: (value: string | number) => formatMoney(Number(value)) },
};

function LastTrades({ trades }: { trades: TradeData['lastTenTrades'] }) {
  const { points, min, max } = lastTradesSeries(trades);
  const options: ChartOptions<'line'> = {
    maintainAspectRatio: false,
    animation: false,
    // The nearest trade answers a pointer anywhere on the graph: a finger need not land on the point.
    interaction: { mode: 'nearest', intersect: false },
    scales: {
      x: {
        type: 'linear',
        min,
        max,
        // One tick a day (or every few days when the trades span many), at midnight, named by its date.
        afterBuildTicks: (axis) => {
          axis.ticks = dayTicks(min, max, axis.width < 400 ? 5 : 9).map((value) => ({ value }));
        },
        ticks: { callback: (value) => dayLabel(Number(value)) },
      },
      y: moneyAxis,
    },
    plugins: {
      legend: { display: false },
      tooltip: {
        displayColors: false,
        callbacks: {
          title: () => '',
          label: (ctx) => tradeTooltip(ctx.parsed.y ?? 0, ctx.parsed.x ?? 0),
        },
      },
    },
  };
  return (
    <figure className="trade-chart" data-testid="last-trades-chart">
      <figcaption>Last ten trades</figcaption>
      <div className="trade-chart__canvas">
        <Line
          aria-label={`Price of the last ${points.length} trades`}
          role="img"
          options={options}
          data={{
            datasets: [
              {
                label: 'Price',
                data: points,
                borderColor: COLOURS['Average Price'],
                backgroundColor: COLOURS['Average Price'],
                pointRadius: 4,
                // A trade at the very start or end of the axis shows whole.
                clip: 6,
              },
            ],
          }}
        />
      </div>
    </figure>
  );
}

function TwelveMonths({ months }: { months: TradeData['twelveMonthsTrades'] }) {
  const { labels, lines, volumes } = monthsSeries(months);
  const options: ChartOptions<'line'> = {
    maintainAspectRatio: false,
    animation: false,
    spanGaps: true,
    // A month's three prices in one tooltip, wherever the pointer is over that month.
    interaction: { mode: 'index', intersect: false },
    scales: { x: { ticks: { maxRotation: 0, autoSkip: false, font: { size: 11 } } }, y: moneyAxis },
    plugins: {
      legend: { position: 'bottom' },
      tooltip: {
        callbacks: {
          label: (ctx) => monthTooltip(ctx.dataset.label as MonthLine, ctx.parsed.y ?? 0, volumes[ctx.dataIndex] ?? 0),
        },
      },
    },
  };
  return (
    <figure className="trade-chart" data-testid="months-chart">
      <figcaption>Last twelve months</figcaption>
      <div className="trade-chart__canvas">
        <Line
          aria-label="Average, lowest and highest price of each of the last twelve months"
          role="img"
          options={options}
          data={{
            labels,
            datasets: MONTH_LINES.map((line) => ({
              label: line,
              data: lines[line],
              borderColor: COLOURS[line],
              backgroundColor: COLOURS[line],
              pointRadius: 3,
              clip: 6,
            })),
          }}
        />
      </div>
    </figure>
  );
}

/** The two graphs of an item's trades; a chunk of its own, so Chart.js loads only when a graph is shown. */
export default function TradeCharts({ data }: { data: TradeData }) {
  return (
    <div className="trade-charts">
      <LastTrades trades={data.lastTenTrades} />
      <TwelveMonths months={data.twelveMonthsTrades} />
    </div>
  );
}
