import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from './api';

/** The browser keeps only a hint that a session exists; the httpOnly cookie is the session (DESIGN.md §4). */
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

export interface Profile {
  id: number;
  username: string | null;
  balance: number;
  keyCount: number;
  lootBoxCount: number;
  profileImageUrl: string | null;
  badge: string;
  firstLogin: boolean;
  emailVerified?: boolean;
  isAdmin?: boolean;
  goodWill?: string;
}

export const profileQuery = queryOptions({
  queryKey: ['profile'] as const,
  queryFn: () => api<Profile>('/api/user/profile'),
  staleTime: 60_000,
  retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
});

/** The signed-in user's profile; undefined while unknown or when logged out. */
export function useProfile() {
  const loggedIn = useLoggedIn();
  return useQuery({ ...profileQuery, enabled: loggedIn });
}

export function useSetProfileField() {
  const client = useQueryClient();
  return (field: 'balance' | 'keyCount' | 'lootBoxCount', value: number) =>
    client.setQueryData(profileQuery.queryKey, (old) => (old ? { ...old, [field]: value } : old));
}

/** Logout: tell the server, drop the flag, go home with a fresh page (SPEC §4 "Login and session"). */
export async function logout(): Promise<void> {
  try {
    await api('/api/auth/logout', { method: 'POST', body: {} });
  } catch {
    window.alert('Failed to logout. Please try again.');
    return;
  }
  setLoggedIn(false);
  window.location.assign('/');
}

/** After sign-in the flag is set and the page starts over where the server says (or reloads). */
export function signedIn(url?: string): void {
  // Not announced to this page: it is about to be replaced, and a profile fetch now would use up firstLogin.
  setLoggedIn(true, false);
  if (url) window.location.assign(url);
  else window.location.reload();
}
