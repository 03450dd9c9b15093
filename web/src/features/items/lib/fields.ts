import { useState } from 'react';
import type { ItemsView } from './sort';

/** The fields an item tile can show; the field-visibility menu turns each on or off. */
export type ItemField = 'rarity' | 'owned' | 'market' | 'sellOffer' | 'buyOffer';

export const ITEM_FIELDS: { field: ItemField; label: string }[] = [
  { field: 'rarity', label: 'Rarity' },
  { field: 'owned', label: 'Owned' },
  { field: 'market', label: 'On market' },
  { field: 'sellOffer', label: 'Sell offer' },
  { field: 'buyOffer', label: 'Buy offer' },
];

const storageKey = (view: ItemsView) => `itemFields:${view}`;

/** The fields shown on `view`, as the user last chose them in this browser (all of them at first). */
export function loadVisibleFields(view: ItemsView): ItemField[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(storageKey(view)) ?? 'null');
    if (Array.isArray(saved)) return ITEM_FIELDS.map((f) => f.field).filter((f) => saved.includes(f));
  } catch {
    // A damaged entry falls back to every field.
  }
  return ITEM_FIELDS.map((f) => f.field);
}

export function useVisibleFields(view: ItemsView) {
  const [fields, setFields] = useState(() => loadVisibleFields(view));
  const toggle = (field: ItemField) => {
    const next = fields.includes(field) ? fields.filter((f) => f !== field) : [...fields, field];
    const ordered = ITEM_FIELDS.map((f) => f.field).filter((f) => next.includes(f));
    localStorage.setItem(storageKey(view), JSON.stringify(ordered));
    setFields(ordered);
  };
  return [fields, toggle] as const;
}
