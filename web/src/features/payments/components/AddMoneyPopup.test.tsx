// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { testRoot } from '../../../lib/test-root';
import { AddMoneyPopup } from './AddMoneyPopup';

const mount = testRoot();

function render(missing?: number) {
  mount.render(
    <QueryClientProvider client={new QueryClient()}>
      <AddMoneyPopup missing={missing} />
    </QueryClientProvider>,
  );
  return mount.host().querySelector<HTMLInputElement>('input[name="amount"]')!;
}

describe('the add money popup', () => {
  it('suggests $5 and offers to pay it', () => {
    const input = render();
    expect(input.value).toBe('5');
    expect(mount.host().querySelector('h2')?.textContent).toBe('Add money');
    expect(mount.host().querySelector('button[type="submit"]')?.textContent).toBe('Pay $5');
  });

  it('opened by a shortfall, it is the top-up with the missing amount rounded up to dollars', () => {
    const input = render(250);
    expect(mount.host().querySelector('h2')?.textContent).toBe('Top up');
    expect(mount.host().textContent).toContain('You need $2.50 more for this.');
    expect(input.value).toBe('3');
  });

  it('blocks the minus, e and plus keys', () => {
    const input = render();
    for (const key of ['-', 'e', '+']) {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      act(() => {
        input.dispatchEvent(event);
      });
      expect(event.defaultPrevented).toBe(true);
    }
  });

  it('keeps the amount focused so it can be typed at once', () => {
    const input = render();
    expect(document.activeElement).toBe(input);
  });
});
