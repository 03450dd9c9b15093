import { describe, expect, it } from 'vitest';
import { dayTicks, lastTradesSeries, monthName, monthTooltip, monthsSeries, startOfDay, tradeTooltip } from './charts';

const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();

describe('the last trades graph', () => {
  it('draws the trades oldest first, from the first trade’s day to the day after the last', () => {
    const series = lastTradesSeries([
      { timestamp: new Date(at(2026, 3, 5, 14)).toISOString(), price: 300 },
      { timestamp: new Date(at(2026, 3, 2, 9)).toISOString(), price: 250 },
    ]);
    expect(series.points).toEqual([
      { x: at(2026, 3, 2, 9), y: 250 },
      { x: at(2026, 3, 5, 14), y: 300 },
    ]);
    expect(series.min).toBe(at(2026, 3, 2));
    expect(series.max).toBe(at(2026, 3, 6));
  });

  it('puts a tick at each midnight, or every few days when they would not fit', () => {
    expect(dayTicks(at(2026, 3, 2), at(2026, 3, 6), 9)).toEqual([
      at(2026, 3, 2),
      at(2026, 3, 3),
      at(2026, 3, 4),
      at(2026, 3, 5),
      at(2026, 3, 6),
    ]);
    const month = dayTicks(at(2026, 3, 1), at(2026, 3, 31), 5);
    expect(month.length).toBeLessThanOrEqual(5);
    expect(month.every((t) => startOfDay(t) === t)).toBe(true);
    expect(month.at(-1)).toBe(at(2026, 3, 31));
  });

  it('says the price and when it sold', () => {
    expect(tradeTooltip(250, at(2026, 3, 2, 9, 5))).toMatch(/^Price: \$2\.50, Sold on: Mar 2, 2026, 9:05\sAM$/);
  });
});

describe('the twelve months graph', () => {
  const months = [
    { label: '2025-12', averagePrice: null, lowestPrice: null, highestPrice: null, volume: 0 },
    { label: '2026-01', averagePrice: 150, lowestPrice: 100, highestPrice: 200, volume: 3 },
  ];

  it('names the months and draws the three lines, with gaps where nothing traded', () => {
    const series = monthsSeries(months);
    expect(series.labels).toEqual(['Dec', ['Jan', '2026']]);
    expect(series.lines).toEqual({
      'Average Price': [null, 150],
      'Min Price': [null, 100],
      'Max Price': [null, 200],
    });
    expect(series.volumes).toEqual([0, 3]);
    expect(monthName('2026-11', false)).toBe('Nov');
    const fromMarch = monthsSeries([
      { ...months[1]!, label: '2026-03' },
      { ...months[1]!, label: '2026-04' },
    ]);
    expect(fromMarch.labels).toEqual([['Mar', '2026'], 'Apr']);
  });

  it('gives the average’s tooltip the month’s volume', () => {
    expect(monthTooltip('Average Price', 150, 3)).toBe('3 Transactions with Average Price: $1.50');
    expect(monthTooltip('Min Price', 100, 3)).toBe('Min Price: $1');
  });
});
