import { describe, expect, it } from 'vitest';
import { median, runSummary } from './summary';

const report = {
  categories: { performance: { score: 0.97 }, accessibility: { score: 1 }, 'best-practices': { score: 0.96 } },
  audits: {
    'largest-contentful-paint': { numericValue: 2250 },
    'first-contentful-paint': { numericValue: 1600 },
    'total-blocking-time': { numericValue: 110 },
    'cumulative-layout-shift': { numericValue: 0.004 },
    'network-requests': {
      details: {
        items: [
          { resourceType: 'Document', transferSize: 2000, resourceSize: 1000 },
          { resourceType: 'Script', transferSize: 80_000, resourceSize: 290_000 },
          { resourceType: 'Script', transferSize: 13_000, resourceSize: 37_000 },
          { resourceType: 'Image', transferSize: 28_000, resourceSize: 27_000 },
        ],
      },
    },
    'largest-contentful-paint-element': {
      details: { type: 'list', items: [{ type: 'table', items: [{ node: { type: 'node', selector: 'img.hero' } }] }] },
    },
    'layout-shifts': { details: { items: [{ node: { type: 'node', selector: 'div.wall' }, score: 0.004 }] } },
  },
};

describe('runSummary', () => {
  it('reads the scores, the metrics, the JavaScript sent and the largest paint out of a report', () => {
    const s = runSummary(report);
    expect([s.performance, s.accessibility, s.bestPractices]).toEqual([97, 100, 96]);
    expect([s.lcp, s.fcp, s.tbt, s.cls]).toEqual([2250, 1600, 110, 0.004]);
    expect([s.jsTransfer, s.jsResource, s.totalTransfer]).toEqual([93_000, 327_000, 123_000]);
    expect(s.lcpElement).toBe('img.hero');
    expect(s.shifts).toEqual(['0.004 div.wall']);
  });

  it('copes with a report that lacks the optional audits', () => {
    const s = runSummary({ categories: {}, audits: {} });
    expect(s.performance).toBe(0);
    expect(s.jsTransfer).toBe(0);
    expect(s.lcpElement).toBeUndefined();
  });
});

describe('median', () => {
  it('takes the middle run, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
