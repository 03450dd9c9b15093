import { describe, expect, it } from 'vitest';
import { filterByStatus, newestFirst, toggleStatus } from './status';

const link = (id: number, decided: boolean, approved: boolean, createdOn = '2026-04-01T12:00:00.000Z') => ({
  id,
  decided,
  approved,
  createdOn,
});
const links = [link(1, false, false), link(2, true, true), link(3, true, false)];

describe('the donation status chips', () => {
  it('show every link when none is selected', () => {
    expect(filterByStatus(links, new Set()).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  it('show the links of every selected status', () => {
    expect(filterByStatus(links, new Set(['PENDING'] as const)).map((l) => l.id)).toEqual([1]);
    expect(filterByStatus(links, new Set(['APPROVED', 'REJECTED'] as const)).map((l) => l.id)).toEqual([2, 3]);
  });

  it('turn a chip on, and off again on a second click', () => {
    const on = toggleStatus(new Set(), 'APPROVED');
    expect([...on]).toEqual(['APPROVED']);
    expect([...toggleStatus(on, 'APPROVED')]).toEqual([]);
  });

  it('sort the admin list by createdOn, newest first', () => {
    const sorted = newestFirst([
      link(1, false, false, '2026-04-01T12:00:00.000Z'),
      link(2, false, false, '2026-04-03T12:00:00.000Z'),
      link(3, false, false, '2026-04-02T12:00:00.000Z'),
    ]);
    expect(sorted.map((l) => l.id)).toEqual([2, 3, 1]);
  });
});
