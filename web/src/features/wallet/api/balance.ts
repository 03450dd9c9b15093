import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLiveChannel } from '../../../lib/live';
import { refetchBalance, writeBalance } from '../lib/balance';

/** The signed-in user's live `balance` channel, written into the cached profile while `enabled` (the shell's). */
export function useLiveBalance(enabled: boolean): void {
  const client = useQueryClient();
  useLiveChannel('balance', (m) => writeBalance(client, m.m.value), enabled);
}

/** What a finished top-up calls: the balance is read again, for a live connection that is down. */
export function useTopUpDone(): () => void {
  const client = useQueryClient();
  return useCallback(() => void refetchBalance(client), [client]);
}
