import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushEndpointBody, PushKey, PushPreferences, PushSubscriptionBody } from '../../../../../common/api/push';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useLoggedIn } from '../../../lib/session';
import {
  currentSubscriptionBody,
  readDevice,
  subscribeDevice,
  subscriptionBody,
  unsubscribeDevice,
  type DeviceState,
} from '../lib/device';

/* Web Push on this device and the user's switches per type (docs/product.md#push). */

/** GET /api/push/key: the server's VAPID public key (base64url). */
export const getPushKey = (): Promise<PushKey> => api<PushKey>('/api/push/key');

/** POST /api/push/subscriptions: this device's subscription (idempotent per endpoint). */
export const addSubscription = (body: PushSubscriptionBody): Promise<unknown> =>
  api<unknown>('/api/push/subscriptions', { body });

/** DELETE /api/push/subscriptions. */
export const removeSubscription = (body: PushEndpointBody): Promise<unknown> =>
  api<unknown>('/api/push/subscriptions', { method: 'DELETE', body });

/** GET /api/push/preferences. */
export const getPreferences = (): Promise<PushPreferences> => api<PushPreferences>('/api/push/preferences');

/** PUT /api/push/preferences: the whole set. */
export const putPreferences = (body: PushPreferences): Promise<unknown> =>
  api<unknown>('/api/push/preferences', { method: 'PUT', body });

export const pushKeyQuery = queryOptions({
  queryKey: ['push', 'key'] as const,
  queryFn: getPushKey,
  staleTime: Infinity,
});

export const preferencesQuery = queryOptions({
  queryKey: ['push', 'preferences'] as const,
  queryFn: getPreferences,
  staleTime: 60_000,
});

/** The endpoints this page load told the server about already. */
const sent = new Set<string>();

/**
 * This device's state. A subscription the browser holds is sent to the server once per page load (idempotent): the
 * server keeps devices per session, so one made under an earlier session belongs to this one again
 * (docs/decisions.md "Issue 27: push switches on /notifications").
 */
async function readAndSync(): Promise<DeviceState> {
  const state = await readDevice();
  if (state.kind === 'on' && !sent.has(state.endpoint)) {
    const body = await currentSubscriptionBody();
    if (body) {
      sent.add(body.endpoint);
      await addSubscription(body).catch(() => sent.delete(body.endpoint));
    }
  }
  return state;
}

export const deviceQuery = queryOptions({
  queryKey: ['push', 'device'] as const,
  queryFn: readAndSync,
  // A local read: the permission may change in the browser's settings while the page is open.
  staleTime: 0,
  refetchOnWindowFocus: true,
});

/** The user's switches, for a signed-in user only. */
export const usePreferences = () => useQuery({ ...preferencesQuery, enabled: useLoggedIn() });

/** This device's state, for a signed-in user only. */
export const useDevice = () => useQuery({ ...deviceQuery, enabled: useLoggedIn() });

/**
 * Saves one switch: shown at once, the whole set PUT; a failure puts back what the server had and throws. The
 * section lets one save run at a time, so two quick changes never reach the server out of order.
 */
export function useSavePreference() {
  const client = useQueryClient();
  return useAction(async (change: Partial<PushPreferences>) => {
    const before = client.getQueryData(preferencesQuery.queryKey);
    if (!before) return;
    const next = { ...before, ...change };
    client.setQueryData(preferencesQuery.queryKey, next);
    try {
      await putPreferences(next);
    } catch (err) {
      client.setQueryData(preferencesQuery.queryKey, before);
      throw err;
    }
  });
}

/** Turns push on here: the prompt, the subscription, and the server told; answers the device's new state. */
export function useTurnOn() {
  const client = useQueryClient();
  return useAction(async (): Promise<DeviceState> => {
    const { publicKey } = await client.fetchQuery(pushKeyQuery);
    const outcome = await subscribeDevice(publicKey);
    let state: DeviceState;
    if (outcome.kind === 'on') {
      const body = subscriptionBody(outcome.subscription.toJSON());
      try {
        if (!body) throw new Error('no keys');
        await addSubscription(body);
      } catch (err) {
        // The server does not have it: the browser drops it too, so what the section shows stays true.
        await outcome.subscription.unsubscribe().catch(() => false);
        throw err;
      }
      sent.add(body.endpoint);
      state = { kind: 'on', endpoint: body.endpoint };
    } else {
      state = outcome.kind === 'blocked' ? { kind: 'blocked' } : { kind: 'off' };
    }
    client.setQueryData(deviceQuery.queryKey, state);
    return state;
  });
}

/** Turns push off here: the server first (a failure leaves it on, as shown), then the browser. */
export function useTurnOff() {
  const client = useQueryClient();
  return useAction(async (endpoint: string): Promise<void> => {
    await removeSubscription({ endpoint });
    sent.delete(endpoint);
    await unsubscribeDevice();
    client.setQueryData<DeviceState>(deviceQuery.queryKey, { kind: 'off' });
  });
}
