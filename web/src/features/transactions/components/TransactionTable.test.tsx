// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransactionRow } from '../../../../../common/api/transactions';
import type { TransactionType } from '../../../../../common/transactions';
import { BrowserRouter } from '../../../lib/router';
import { testRoot } from '../../../lib/test-root';
import { TransactionTable } from './TransactionTable';

const mount = testRoot();
const host = () => mount.host();

const row = (id: number, payAmount: number, resourceId: string | null, resourcePreview: string | null) =>
  ({ id, time: '2026-11-23T10:00:00.000Z', payAmount, resourceId, resourcePreview }) satisfies TransactionRow;

/** Renders the table of `type` with fetch answering `status` and `body`, and waits for the answer to show. */
async function show(type: TransactionType, status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <TransactionTable type={type} />
      </BrowserRouter>
    </QueryClientProvider>,
  );
  for (let i = 0; i < 20 && host().textContent?.includes('Loading...'); i++) {
    await act(() => new Promise((r) => setTimeout(r, 5)));
  }
}

beforeEach(() => localStorage.setItem('isLoggedIn', 'true'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('a type’s transactions', () => {
  it('shows chat messages cut, with the Message column, and amounts red or green', async () => {
    await show('CHAT_MESSAGE', 200, [row(2, -12, '7', 'hello there, world'), row(1, 5, '6', 'short one')]);
    const heads = [...host().querySelectorAll('th')].map((th) => th.textContent);
    expect(heads).toEqual(['Message', 'Time', 'Amount']);
    const cells = [...host().querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(cells.map((c) => c[0])).toEqual(['hello th...', 'short one']);
    expect(cells.map((c) => c[2])).toEqual(['-$0.12', '$0.05']);
    const amounts = [...host().querySelectorAll('td.amount')].map((td) => td.className);
    expect(amounts[0]).toContain('amount--negative');
    expect(amounts[1]).toContain('amount--positive');
  });

  it('links item rows to the item’s detail with its graph, naming the item in words', async () => {
    await show('ITEM_BUY', 200, [row(3, -90, 'COMMON_LETTER_Z', 'COMMON_LETTER_Z')]);
    expect(host().querySelector('th')!.textContent).toBe('Item');
    expect(host().querySelector('tbody a')!.getAttribute('href')).toBe('/items-detail/COMMON_LETTER_Z/graph');
    expect(host().querySelector('tbody td')!.textContent).toBe('ZLetter Z');
  });

  it('shows a reaction as the emoji and its name, and the time as a date', async () => {
    await show('REACTION', 200, [row(4, -20, '12', 'UNCOMMON_EMOJI_HEART')]);
    const cells = [...host().querySelectorAll('tbody td')].map((td) => td.textContent);
    expect(cells[0]).toBe('❤️Red heart');
    expect(cells[1]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    expect(host().textContent).not.toMatch(/[A-Z]+_[A-Z_]+/);
  });

  it('says when there is nothing, and shows a failure as Error: {message}', async () => {
    await show('IMAGE', 200, []);
    expect(host().textContent).toContain('No details available for this transaction.');
    await show('PIN', 500, { message: 'boom' });
    expect(host().querySelector('[role="alert"]')!.textContent).toBe('Error: Network response was not ok');
  });

  it('asks a visitor to sign in and calls nothing', async () => {
    localStorage.removeItem('isLoggedIn');
    await show('IMAGE', 200, []);
    expect(host().textContent).toContain('Sign in to see your transactions.');
    expect(fetch).not.toHaveBeenCalled();
  });
});
