// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHARITY_ERROR_MS, CHARITY_LINK_TEXT } from '../../../../../common/charity';
import { GENERIC_ERROR_TEXT } from '../../../../../common/errors';
import type { Profile } from '../../../../../common/api/users';
import { BrowserRouter } from '../../../lib/router';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { profileQuery } from '../../users/api/profile';
import { BAD_LINK_TEXT, CharityLinkPopup } from './CharityLinkPopup';

const mount = testRoot();
beforeEach(() => setLoggedIn(true, false));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function render() {
  const client = new QueryClient();
  client.setQueryData(profileQuery.queryKey, { badge: 'BADGE42' } as Profile);
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <CharityLinkPopup />
      </BrowserRouter>
    </QueryClientProvider>,
  );
  return mount.host().querySelector<HTMLInputElement>('input[name="link"]')!;
}

/** Types into a React-controlled input. */
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => {
    mount.host().querySelector('form')!.requestSubmit();
    await Promise.resolve();
  });
}

/** Lets the answer's promises run. */
const settle = () =>
  act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });

const alertText = () => mount.host().querySelector('[role="alert"]')?.textContent;

describe('the charity link popup', () => {
  it('shows the badge code to quote with the donation, and links to the donation lists', () => {
    render();
    expect(mount.host().querySelector('[data-testid="badge-code"]')?.textContent).toBe('BADGE42');
    const links = [...mount.host().querySelectorAll('nav a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/my-donations', '/public-donations']);
  });

  it('refuses a link without a dot and letters, locks the input, and clears both after 5 s', async () => {
    vi.useFakeTimers();
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const input = render();
    type(input, 'not a link');
    await submit();
    expect(alertText()).toBe(BAD_LINK_TEXT);
    expect(input.readOnly).toBe(true);
    expect(fetchSpy).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(CHARITY_ERROR_MS - 1);
    });
    expect(alertText()).toBe(BAD_LINK_TEXT);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(alertText()).toBeUndefined();
    expect(input.readOnly).toBe(false);
  });

  it('refuses a javascript: or data: link in the words the server uses, and sends nothing', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    for (const bad of ['javascript://example.com/%0Aalert(1)', 'data://text/html,x.com']) {
      const input = render();
      type(input, bad);
      await submit();
      expect(alertText(), bad).toBe(CHARITY_LINK_TEXT.notWeb);
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows the server's first errorText", async () => {
    const errors = [
      { field: 'link', errorText: 'That link was sent before.' },
      { field: 'link', errorText: 'second' },
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(errors), { status: 400 })),
    );
    const input = render();
    type(input, 'charity.org/receipt/1');
    await submit();
    await settle();
    expect(alertText()).toBe('That link was sent before.');
    expect(input.readOnly).toBe(true);
  });

  it('shows the generic text for any other failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 500 })),
    );
    const input = render();
    type(input, 'charity.org/receipt/1');
    await submit();
    await settle();
    expect(alertText()).toBe(GENERIC_ERROR_TEXT);
  });

  it('says the link was sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 200 })),
    );
    const input = render();
    type(input, 'https://charity.org/receipt/1');
    await submit();
    await settle();
    expect(mount.host().querySelector('[role="status"]')?.textContent).toContain('Your link was sent');
  });
});
