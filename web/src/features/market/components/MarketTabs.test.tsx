// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemDetails } from '../../../../../common/api/items';
import type { OrderAnswer } from '../../../../../common/api/market';
import { itemDetailsQuery } from '../../items/api/details';
import { testRoot } from '../../../lib/test-root';
import { profileQuery } from '../../users/api/profile';
import { BuyTab } from './BuyTab';
import { SellTab } from './SellTab';

const mount = testRoot();
const SINCE = '2026-01-01T00:00:00.000Z';

const rocket = (change: Partial<ItemDetails> = {}): ItemDetails => ({
  itemType: 'RARE_EMOJI_ROCKET',
  emoji: '🚀',
  name: 'Rocket',
  rarity: 3,
  market: { quantity: 2, bestSo: 250, bestBo: 120 },
  user: { quantity: 3, sellOffer: null, buyOffer: null },
  ...change,
});

function render(ui: ReactNode, item: ItemDetails) {
  const client = new QueryClient();
  client.setQueryData(itemDetailsQuery.queryKey, [item]);
  client.setQueryData(profileQuery.queryKey, { id: 1, balance: 1000 } as never);
  mount.render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return client;
}

const host = () => mount.host();
const input = (name: string) => host().querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const button = (text: string) => [...host().querySelectorAll('button')].find((b) => b.textContent === text)!;

/** Types into a controlled input as a user would: React hears the native input event. */
function type(el: HTMLInputElement, text: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, text);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('the SELL tab', () => {
  it('starts a cent under the market price with all units but one', () => {
    render(<SellTab item={rocket()} />, rocket());
    expect(input('price').value).toBe('2.49');
    expect(input('quantity').value).toBe('2');
  });

  it('clamps the quantity to what is owned and refuses a price at the user’s own buy offer', () => {
    const item = rocket({
      user: { quantity: 3, sellOffer: null, buyOffer: { price: 150, quantity: 1, since: SINCE } },
    });
    render(<SellTab item={item} />, item);
    type(input('quantity'), '40');
    expect(input('quantity').value).toBe('3');
    type(input('price'), '1,5');
    expect(host().textContent).toContain('You are buying for $1.50');
    expect(button('Create Sell Offer').disabled).toBe(true);
  });
});

describe('the BUY tab', () => {
  it('hides the buy offer form until Offer Price, sends it with a key on Enter and closes it', async () => {
    const item = rocket();
    const answer: OrderAnswer = {
      itemType: item.itemType,
      filled: 0,
      market: { quantity: 2, bestSo: 250, bestBo: 130 },
      user: { quantity: 3, sellOffer: null, buyOffer: { price: 130, quantity: 2, since: SINCE } },
      balance: 740,
    };
    const fetch = vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const client = render(<BuyTab item={item} />, item);
    expect(host().querySelector('form')).toBeNull();
    act(() => button('Offer Price').click());
    expect(input('price').value).toBe('1.21');
    type(input('price'), '1.30');
    type(input('quantity'), '2');
    await act(async () => {
      host().querySelector('form')!.requestSubmit();
    });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/market/generic-buy-offer');
    expect(JSON.parse(init.body as string)).toEqual({
      itemType: item.itemType,
      price: 130,
      quantity: 2,
      balance: 1000,
    });
    expect((init.headers as Record<string, string>)['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(host().querySelector('form')).toBeNull();
    expect(client.getQueryData(profileQuery.queryKey)!.balance).toBe(740);
    expect(client.getQueryData(itemDetailsQuery.queryKey)![0]!.user.buyOffer?.price).toBe(130);
  });

  it('turns the market Buy button off when the best price is the user’s own, saying why', () => {
    const item = rocket({
      user: { quantity: 3, sellOffer: { price: 250, quantity: 1, since: SINCE }, buyOffer: null },
    });
    render(<BuyTab item={item} />, item);
    expect(button('Buy for $2.50').disabled).toBe(true);
    expect(host().querySelector('[data-tip]')?.getAttribute('data-tip')).toBe('You are selling for $2.50');
  });
});
