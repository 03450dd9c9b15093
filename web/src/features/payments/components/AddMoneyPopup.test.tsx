// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AddMoneyPopup } from './AddMoneyPopup';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

function render(missing?: number) {
  act(() => {
    root.render(
      <QueryClientProvider client={new QueryClient()}>
        <AddMoneyPopup missing={missing} />
      </QueryClientProvider>,
    );
  });
  return host.querySelector<HTMLInputElement>('input[name="amount"]')!;
}

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the add money popup', () => {
  it('suggests $5 and offers to pay it', () => {
    const input = render();
    expect(input.value).toBe('5');
    expect(host.querySelector('h2')?.textContent).toBe('Add money');
    expect(host.querySelector('button[type="submit"]')?.textContent).toBe('Pay $5');
  });

  it('opened by a shortfall, it is the top-up with the missing amount rounded up to dollars', () => {
    const input = render(250);
    expect(host.querySelector('h2')?.textContent).toBe('Top up');
    expect(host.textContent).toContain('You need $2.50 more for this.');
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
