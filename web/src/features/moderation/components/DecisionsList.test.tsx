// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDecision } from '../../../../../common/api/moderation';
import { BrowserRouter } from '../../../lib/router';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { userDecisionsQuery } from '../api/moderation';
import { FORM_TEXT } from '../lib/forms';
import { fakeFetch, submit, type } from '../lib/test-helpers';
import { DecisionsList } from './DecisionsList';

const mount = testRoot();
beforeEach(() => setLoggedIn(true, false));
afterEach(() => vi.unstubAllGlobals());

const day = 24 * 60 * 60 * 1000;
const decision = (over: Partial<UserDecision> = {}): UserDecision => ({
  decisionId: 3,
  contentType: 'COMMENT',
  contentId: 12,
  action: 'remove',
  category: 'hate-speech',
  reasons: 'Insults a group of people.',
  suspended: true,
  suspendedUntil: null,
  refunded: 150,
  decidedOn: new Date(Date.now() - day).toISOString(),
  appealUntil: new Date(Date.now() + 13 * day).toISOString(),
  appeal: null,
  ...over,
});

function render(list: UserDecision[], answer: Parameters<typeof fakeFetch>[0] = () => ({ status: 200, body: list })) {
  const fake = fakeFetch(answer);
  vi.stubGlobal('fetch', fake.fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userDecisionsQuery.queryKey, list);
  mount.render(
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <DecisionsList />
      </BrowserRouter>
    </QueryClientProvider>,
  );
  return fake.calls;
}

const text = () => mount.host().textContent ?? '';

describe("the author's decisions", () => {
  it('shows the content type, action, category, reasons, suspension and refund', () => {
    render([decision()]);
    for (const part of [
      'Comment',
      'Removed',
      'Hate Speech',
      'Insults a group of people.',
      'Suspended for good',
      'Refunded: $1.50',
    ])
      expect(text()).toContain(part);
  });

  it('requires a text to appeal, then sends it once and says so', async () => {
    const calls = render([decision()], (url) =>
      url === '/api/user/moderation/appeal' ? { status: 200, body: {} } : { status: 200, body: [decision()] },
    );
    const form = mount.host().querySelector<HTMLFormElement>('form[aria-label="Appeal"]')!;
    await submit(form);
    expect(mount.host().querySelector('.field__error')?.textContent).toBe(FORM_TEXT.appealRequired);
    expect(calls.filter((c) => c.url.includes('appeal'))).toHaveLength(0);
    type(form.querySelector('textarea')!, 'It was a quote from a book.');
    await submit(form);
    const sent = calls.filter((c) => c.url === '/api/user/moderation/appeal');
    expect(sent.map((c) => c.body)).toEqual([{ decisionId: 3, text: 'It was a quote from a book.' }]);
    expect(text()).toContain('Your appeal was sent.');
  });

  it("says 'already appealed' on a 409", async () => {
    // The list read again after it still shows the form (the server has not told of the first appeal yet).
    render([decision()], (url) =>
      url === '/api/user/moderation/appeal'
        ? { status: 409, body: { message: 'Already appealed' } }
        : { status: 200, body: [decision()] },
    );
    const form = mount.host().querySelector<HTMLFormElement>('form[aria-label="Appeal"]')!;
    type(form.querySelector('textarea')!, 'Again.');
    await submit(form);
    expect(mount.host().querySelector('.form-error')?.textContent).toBe(FORM_TEXT.alreadyAppealed);
  });

  it('shows an appeal instead of the form once sent, and no form when the time is over', () => {
    render([
      decision({ decisionId: 1, appeal: { status: 'REVERSED', text: 'Quote.', decidedOn: new Date().toISOString() } }),
      decision({ decisionId: 2, appealUntil: new Date(Date.now() - 1000).toISOString() }),
    ]);
    expect(mount.host().querySelectorAll('form')).toHaveLength(0);
    expect(mount.host().querySelector('[data-testid="appeal-status"]')?.textContent).toContain('Appeal reversed');
    expect(text()).toContain('The time to appeal is over.');
  });
});
