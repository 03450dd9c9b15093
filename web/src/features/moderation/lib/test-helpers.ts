import { act } from 'react';

/* Typing into React-controlled fields and letting answers arrive, for this feature's component tests. */

const setterOf = (el: HTMLElement) =>
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, 'value')!.set!;

/** Types into an input, textarea or select. */
export function type(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  act(() => {
    setterOf(el).call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

export function click(el: Element | null | undefined): void {
  act(() => (el as HTMLElement).click());
}

/** Lets pending promises and timers of 0 ms run. */
export const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });

export async function submit(form: HTMLFormElement): Promise<void> {
  await act(async () => {
    form.requestSubmit();
    await Promise.resolve();
  });
  await settle();
}

/** A fetch stub answering `answer(url, init)`; its calls are kept. */
export function fakeFetch(answer: (url: string, init: RequestInit) => { status: number; body?: unknown }) {
  const calls: { url: string; init: RequestInit; body: unknown; headers: Record<string, string> }[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ url, init, body, headers: (init.headers ?? {}) as Record<string, string> });
    const { status, body: out } = answer(url, init);
    return new Response(out === undefined ? '' : JSON.stringify(out), { status });
  };
  return { fetch, calls };
}
