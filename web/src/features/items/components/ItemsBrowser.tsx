import { useMemo } from 'react';
import { Link, useSearchParams } from '../../../lib/router';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useItemDetails } from '../api/details';
import { ITEM_FIELDS, useVisibleFields } from '../lib/fields';
import {
  SORT_FIELDS,
  parseSort,
  sortParam,
  visibleItems,
  type Direction,
  type ItemsView,
  type SortField,
} from '../lib/sort';
import { Dropdown } from './Dropdown';
import { ItemTile } from './ItemTile';
import '../items.css';

const TITLES: Record<ItemsView, string> = { 'my-items': 'Inventory', 'item-store': 'Store' };
const INTROS: Record<ItemsView, string> = {
  'my-items': 'The letters and emojis you own. You write with them.',
  'item-store': 'Every letter and emoji there is, with its market.',
};

/**
 * The inventory and the store (docs/product.md#items): a search box, a field-visibility menu, a sort menu and
 * the items. The search and the sort live in the address, so coming back from an item finds the list as it was.
 */
export function ItemsBrowser({ view }: { view: ItemsView }) {
  const { data: items, isPending, isError, refetch } = useItemDetails();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const sort = parseSort(params.get('sort'));
  const [fields, toggleField] = useVisibleFields(view);
  const shown = useMemo(() => (items ? visibleItems(items, view, query, sort) : []), [items, view, query, sort]);
  const ownsNothing = view === 'my-items' && items !== undefined && !items.some((i) => i.user.quantity > 0);

  const setParam = (name: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const setSort = (field: SortField | 'default', direction: Direction) =>
    setParam('sort', field === 'default' ? null : sortParam({ field, direction }));
  const direction = sort?.direction ?? 'desc';
  const sortLabel = sort
    ? `${SORT_FIELDS.find((f) => f.field === sort.field)!.label} ${sort.direction === 'asc' ? '↑' : '↓'}`
    : 'Default';

  return (
    <section className="page items-page" aria-labelledby="items-title">
      <h1 id="items-title">{TITLES[view]}</h1>
      <p className="muted items-page__intro">{INTROS[view]}</p>
      <div className="items-toolbar">
        <input
          type="search"
          className="items-toolbar__search"
          placeholder="Search"
          aria-label="Search items"
          value={query}
          onChange={(e) => setParam('q', e.target.value)}
        />
        <Dropdown label="Fields">
          <fieldset className="items-menu">
            <legend>Show on each item</legend>
            {ITEM_FIELDS.map(({ field, label }) => (
              <label key={field} className="items-menu__choice">
                <input type="checkbox" checked={fields.includes(field)} onChange={() => toggleField(field)} />
                {label}
              </label>
            ))}
          </fieldset>
        </Dropdown>
        <Dropdown label="Sort" summary={sortLabel} align="end">
          <fieldset className="items-menu">
            <legend>Sort by</legend>
            {[{ field: 'default' as const, label: 'Default' }, ...SORT_FIELDS].map(({ field, label }) => (
              <label key={field} className="items-menu__choice">
                <input
                  type="radio"
                  name={`sort-field-${view}`}
                  checked={(sort?.field ?? 'default') === field}
                  onChange={() => setSort(field, direction)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <fieldset className="items-menu" disabled={!sort}>
            <legend>Order</legend>
            {(['asc', 'desc'] as const).map((d) => (
              <label key={d} className="items-menu__choice">
                <input
                  type="radio"
                  name={`sort-direction-${view}`}
                  checked={sort ? sort.direction === d : d === 'desc'}
                  onChange={() => sort && setSort(sort.field, d)}
                />
                {d === 'asc' ? 'Ascending' : 'Descending'}
              </label>
            ))}
          </fieldset>
        </Dropdown>
      </div>

      {isPending ? (
        <p className="loading">Loading...</p>
      ) : isError ? (
        <LoadFailed className="items-empty" text="The items could not be loaded." onRetry={() => void refetch()} />
      ) : shown.length === 0 ? (
        <div className="items-empty" role="status">
          <p>No filter matching criteria</p>
          {ownsNothing && (
            <p className="muted">
              You own no items yet. <Link to="/lootboxes">Open a lootbox</Link> to find letters and emojis.
            </p>
          )}
        </div>
      ) : (
        <ul className="item-grid" aria-label={`${TITLES[view]} items`}>
          {shown.map((item) => (
            <ItemTile key={item.itemType} item={item} view={view} fields={fields} />
          ))}
        </ul>
      )}
    </section>
  );
}
