import { useSyncExternalStore } from 'react';

export type PopupSpec =
  | { kind: 'signIn'; tab?: SignInTab }
  | { kind: 'nickname' }
  | { kind: 'welcome'; username: string }
  /**
   * Add money; with `missing` it is the top-up popup for a shortfall. A charity tenant shows the charity link popup
   * in its place (app/popups/popups.tsx).
   */
  | { kind: 'addMoney'; missing?: number }
  /** Send a donation link (charity tenants: docs/product.md#popups). */
  | { kind: 'charityLink'; missing?: number }
  /** An item's sell offers (each with Buy) or buy offers (each with Sell). */
  | { kind: 'offers'; itemType: string; side: 'sell' | 'buy' }
  /** Report a comment, a chat message or a picture (docs/product.md#reports). */
  | { kind: 'reportMessage'; type: 'COMMENT' | 'CHAT' | 'PICTURE'; messageId: number }
  /** Confirm blocking a user (docs/product.md#moderation-screens). */
  | { kind: 'blockUser'; userId: number; username: string };

export type SignInTab = 'easy' | 'login' | 'register';

interface OpenPopup {
  spec: PopupSpec;
  /** A strict popup stays open across page navigation. */
  strict: boolean;
  /** The page it belongs to: leaving that page closes it. */
  path: string;
}

let current: OpenPopup | null = null;
let returnFocus: HTMLElement | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function openPopup(spec: PopupSpec, opts: { strict?: boolean; path?: string } = {}): void {
  // Focus goes back to what had it before the first popup of a chain opened.
  if (!current) returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  current = { spec, strict: opts.strict ?? false, path: opts.path ?? window.location.pathname };
  emit();
}

export function closePopup(): void {
  if (!current) return;
  current = null;
  emit();
  const target = returnFocus;
  returnFocus = null;
  if (target?.isConnected) queueMicrotask(() => target.focus());
}

/** Page navigation closes a popup that is not strict. */
export function closePopupOnNavigation(pathname: string): void {
  if (current && !current.strict && current.path !== pathname) closePopup();
}

export const popupIsOpen = (): boolean => current !== null;

export function usePopup(): OpenPopup | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => null,
  );
}
