import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wallQuery, type WallPage } from '../api/pictures';
import type { Picture } from '../../../../../common/api/pictures';
import { picture } from './picture.fixture';
import { applyFundMessage, replacePicture } from './cache';

function clientWithTopWall(items: Picture[]) {
  const client = new QueryClient();
  const key = wallQuery({ sort: 'top' }, 0).queryKey;
  client.setQueryData<InfiniteData<WallPage>>(key, {
    pages: [{ offset: 0, limit: 3, items }],
    pageParams: [{ offset: 0, limit: 3 }],
  });
  const ids = () => client.getQueryData<InfiniteData<WallPage>>(key)!.pages[0]!.items.map((p) => p.id);
  return { client, key, ids };
}

afterEach(() => vi.useRealTimers());

describe('the wall cache', () => {
  it('re-ranks a loaded wall in place when a fund message arrives', () => {
    const { client, ids } = clientWithTopWall([picture(1, 900), picture(2, 500), picture(3, 100)]);
    client.setQueryData(['pictures', 'one', 3], picture(3, 100));
    applyFundMessage(client, { pictureId: 3, authorFund: false, fundAmount: 1000, fundOn: '2026-01-01T12:05:00.000Z' });
    expect(ids()).toEqual([3, 1, 2]);
    expect(client.getQueryData<Picture>(['pictures', 'one', 3])!.totalAmount).toBe(1100);
  });

  it('counts the funder’s own purchase once, whichever of the answer and the message comes first', () => {
    const { client, key } = clientWithTopWall([picture(1, 900)]);
    const funded = {
      ...picture(1, 1200),
      purchases: [...picture(1, 900).purchases, { amount: 300, paidOn: '2026-01-01T12:05:00.000Z' }],
    };
    replacePicture(client, funded);
    applyFundMessage(client, { pictureId: 1, authorFund: false, fundAmount: 300, fundOn: '2026-01-01T12:05:00.000Z' });
    expect(client.getQueryData<InfiniteData<WallPage>>(key)!.pages[0]!.items[0]!.totalAmount).toBe(1200);
  });

  it('refetches a wall that has not loaded the funded picture, at most once a second', async () => {
    vi.useFakeTimers();
    const { client } = clientWithTopWall([picture(1, 900)]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    for (let i = 0; i < 5; i++) {
      applyFundMessage(client, {
        pictureId: 7,
        authorFund: false,
        fundAmount: 100,
        fundOn: `2026-01-01T12:0${i}:00.000Z`,
      });
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
