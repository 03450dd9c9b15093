import { useSyncExternalStore } from 'react';

/**
 * The suspension a refused call told of (docs/product.md#moderation-screens): any paid or writing call of a suspended
 * user answers 403 `{message, suspendedUntil}` (null for good). `api()` notes it here, once for every call, and the
 * shell's banner says it.
 */
export interface SuspensionNotice {
  message: string;
  /** ISO 8601; null for good. */
  suspendedUntil: string | null;
  /** When the refusal came (ms): a profile read after it knows better. */
  at: number;
}

let current: SuspensionNotice | null = null;
const listeners = new Set<() => void>();

/** Whether a refusal's body is a suspension's, and if so notes it. */
export function noteSuspension(status: number, body: unknown): boolean {
  if (status !== 403 || typeof body !== 'object' || body === null || !('suspendedUntil' in body)) return false;
  const { message, suspendedUntil } = body as { message?: unknown; suspendedUntil?: unknown };
  const until = typeof suspendedUntil === 'string' ? suspendedUntil : null;
  // The same suspension told again changes nothing (the banner rereads the profile once per notice).
  if (current?.suspendedUntil === until) return true;
  current = { message: typeof message === 'string' ? message : '', suspendedUntil: until, at: Date.now() };
  listeners.forEach((l) => l());
  return true;
}

/** Forgets the notice (the suspension ended, or the user signed out). */
export function clearSuspension(): void {
  if (current === null) return;
  current = null;
  listeners.forEach((l) => l());
}

export function useSuspensionNotice(): SuspensionNotice | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => null,
  );
}
