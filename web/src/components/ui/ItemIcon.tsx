import type { CSSProperties } from 'react';
import { TIERS, TIER_STYLE, itemOf, type Tier } from '../../../../common/items';
import './ItemIcon.css';

const tierOf = (rarity: number): Tier => TIERS[Math.min(TIERS.length, Math.max(1, rarity)) - 1]!;

/**
 * A letter or emoji item on its tier's colour (docs/product.md#items: rarity colours). Decorative unless `label` is
 * given: the control or text around it usually names the item.
 */
export function ItemIcon({
  itemType,
  size = 48,
  label,
  className,
}: {
  itemType: string;
  size?: number;
  label?: string;
  className?: string;
}) {
  const item = itemOf(itemType);
  const tier = item?.tier ?? 'LETTER';
  const style = { '--tier': TIER_STYLE[tier].colour, '--size': `${size}px` } as CSSProperties;
  return (
    <span
      className={`item-icon item-icon--${tier.toLowerCase()}${className ? ` ${className}` : ''}`}
      style={style}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-item={itemType}
    >
      {item?.emoji ?? '?'}
    </span>
  );
}

/** The rarity's name on its colour: Letter, Uncommon, Rare, Epic, Elusive. */
export function RarityLabel({ rarity }: { rarity: number }) {
  const tier = tierOf(rarity);
  return (
    <span
      className={`rarity-label rarity-label--${tier.toLowerCase()}`}
      style={{ '--tier': TIER_STYLE[tier].colour } as CSSProperties}
    >
      {TIER_STYLE[tier].label}
    </span>
  );
}
