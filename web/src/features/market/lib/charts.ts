import type { TradeData } from '../../../../../common/api/market';
import { formatMoney } from '../../../../../common/money';
import { formatDateTime } from '../../../../../common/time';

/*
 * What the two graphs draw (docs/product.md#graphs), apart from Chart.js so it can be tested: the last ten trades on a
 * time axis in days (a linear axis of milliseconds with a tick at midnight, so no date adapter is needed), and the
 * twelve months' average, lowest and highest prices. Prices stay in cents; the axes and tooltips format them.
 */

type Trade = TradeData['lastTenTrades'][number];
type Month = TradeData['twelveMonthsTrades'][number];

const DAY_MS = 86_400_000;

/** Local midnight of the day `ms` falls on. */
export function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

const nextDay = (ms: number, days = 1): number => {
  const d = new Date(ms);
  d.setDate(d.getDate() + days);
  return d.getTime();
};

/**
 * Ticks at local midnights between `from` and `to` (both midnights), every so many days that at most `maxTicks`
 * fit, counted back from `to`: the newest end of the axis is always named.
 */
export function dayTicks(from: number, to: number, maxTicks: number): number[] {
  const days = Math.max(1, Math.round((to - from) / DAY_MS));
  const step = Math.max(1, Math.ceil(days / Math.max(1, maxTicks - 1)));
  const ticks: number[] = [];
  for (let t = to; t >= from; t = nextDay(t, -step)) ticks.unshift(t);
  return ticks;
}

/** The last trades oldest first as points, and the axis from the first trade's day to the day after the last. */
export function lastTradesSeries(trades: readonly Trade[]): {
  points: { x: number; y: number }[];
  min: number;
  max: number;
} {
  const points = trades.map((t) => ({ x: new Date(t.timestamp).getTime(), y: t.price })).sort((a, b) => a.x - b.x);
  if (points.length === 0) return { points, min: 0, max: DAY_MS };
  return { points, min: startOfDay(points[0]!.x), max: nextDay(startOfDay(points.at(-1)!.x)) };
}

/** A tick's date: 'Nov 22'. */
export const dayLabel = (ms: number): string =>
  new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });

/** A trade's tooltip: its price, and when it happened in the app's one date format (common/time.ts). */
export const tradeTooltip = (price: number, ms: number): string =>
  `Price: ${formatMoney(price)}, Sold on: ${formatDateTime(ms)}`;

/**
 * 'YYYY-MM' as the month axis shows it: the month's short name, over its year where one is wanted ('Dec',
 * ['Jan', '2026'], 'Feb'), so twelve labels fit a phone without turning.
 */
export function monthName(label: string, withYear: boolean): string | string[] {
  const [year, month] = label.split('-').map(Number);
  const name = new Date(Date.UTC(year!, month! - 1, 1)).toLocaleDateString('en-US', {
    month: 'short',
    timeZone: 'UTC',
  });
  return withYear ? [name, String(year)] : name;
}

export const MONTH_LINES = ['Average Price', 'Min Price', 'Max Price'] as const;
export type MonthLine = (typeof MONTH_LINES)[number];

const isJanuary = (m: Month) => m.label.endsWith('-01');

/** The year goes under each January, and under the first month unless a January follows within two labels. */
const yearShown = (months: readonly Month[], i: number): boolean =>
  isJanuary(months[i]!) || (i === 0 && !months.slice(1, 3).some(isJanuary));

/** The twelve months, oldest first: their names, the three lines (null where a month had no trade) and volumes. */
export function monthsSeries(months: readonly Month[]) {
  return {
    labels: months.map((m, i) => monthName(m.label, yearShown(months, i))),
    lines: {
      'Average Price': months.map((m) => m.averagePrice),
      'Min Price': months.map((m) => m.lowestPrice),
      'Max Price': months.map((m) => m.highestPrice),
    } satisfies Record<MonthLine, (number | null)[]>,
    volumes: months.map((m) => m.volume),
  };
}

/** A month point's tooltip: the average names the month's volume (docs/product.md#graphs). */
export function monthTooltip(line: MonthLine, price: number, volume: number): string {
  if (line === 'Average Price') return `${volume} Transactions with Average Price: ${formatMoney(price)}`;
  return `${line}: ${formatMoney(price)}`;
}
