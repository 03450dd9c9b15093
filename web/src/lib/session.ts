import { useSyncExternalStore } from 'react';

/** The browser keeps only a hint that a session exists; the httpOnly cookie is the session (docs/product.md#accounts). */
const FLAG = 'isLoggedIn';
const listeners = new Set<() => void>();

export function isLoggedIn(): boolean {
  try {
    return localStorage.getItem(FLAG) === 'true';
  } catch {
    return false;
  }
}

export function setLoggedIn(on: boolean, notify = true): void {
  if (on) localStorage.setItem(FLAG, 'true');
  else localStorage.removeItem(FLAG);
  if (notify) listeners.forEach((l) => l());
}

export function useLoggedIn(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      const onStorage = (e: StorageEvent) => e.key === FLAG && l();
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(l);
        window.removeEventListener('storage', onStorage);
      };
    },
    isLoggedIn,
    () => false,
  );
}
