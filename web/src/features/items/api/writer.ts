import { useMemo } from 'react';
import { writerOf, type Writer } from '../../../../../common/writing';
import { useItemDetails } from './details';

/**
 * What the signed-in user may write with, from the items they own (the same query the inventory reads, so a trade
 * or an opening updates it). `allLetters` is the author's mode on their own picture.
 */
export function useWriter(allLetters = false): Writer {
  const { data } = useItemDetails();
  return useMemo(
    () =>
      writerOf(
        (data ?? []).map((d) => ({ itemType: d.itemType, quantity: d.user.quantity })),
        { allLetters },
      ),
    [data, allLetters],
  );
}
