import { describe, expect, it } from 'vitest';
import { DONATION_PAGE } from '../../../../../common/charity';
import type { DonationLinks } from '../../../../../common/api/charity';
import { linksPaging } from './page';

const page = (n: number, lastId: number) =>
  Array.from({ length: n }, (_, i) => ({ id: lastId + n - 1 - i })) as unknown as DonationLinks;

describe('the donation lists paging', () => {
  it('asks for links older than the last one shown after a full page', () => {
    expect(linksPaging.getNextPageParam(page(DONATION_PAGE, 40))).toBe(40);
  });

  it('stops after a page that is not full', () => {
    expect(linksPaging.getNextPageParam(page(DONATION_PAGE - 1, 40))).toBeUndefined();
    expect(linksPaging.getNextPageParam([])).toBeUndefined();
  });
});
