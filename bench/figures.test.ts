import { describe, expect, it } from 'vitest';
import { FIGURE_PREFIX, meetsGoal, parseFigures, type BenchFigure } from './figures';

const figure = (value: number, goal?: BenchFigure['goal']): BenchFigure => ({
  bench: 'bench:x',
  figure: 'y',
  value,
  unit: '×',
  goal,
  rerun: 'npm run bench:x',
});

describe('bench figures', () => {
  it('judges a figure by its goal, at the bound included or excluded as the goal says', () => {
    expect(meetsGoal(figure(1.2, { atLeast: 1.2 }))).toBe(true);
    expect(meetsGoal(figure(1.19, { atLeast: 1.2 }))).toBe(false);
    expect(meetsGoal(figure(100, { atMost: 100 }))).toBe(true);
    expect(meetsGoal(figure(100.1, { atMost: 100 }))).toBe(false);
    expect(meetsGoal(figure(20, { below: 20 }))).toBe(false);
    expect(meetsGoal(figure(Number.NaN, { below: 20 }))).toBe(false);
    expect(meetsGoal(figure(3))).toBeUndefined();
  });

  it('finds the figures among a benchmark report’s other lines', () => {
    const a = figure(0.9, { atLeast: 0.7 });
    const out = `report\n${FIGURE_PREFIX}${JSON.stringify(a)}\n| table |\n`;
    expect(parseFigures(out)).toEqual([a]);
    expect(parseFigures('nothing here')).toEqual([]);
  });
});
