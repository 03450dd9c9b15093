import type { CSSProperties } from 'react';
import { TIER_STYLE } from '../../../../../common/items';
import { RarityLabel } from '../../../components/ui/ItemIcon';
import { useOdds, useOddsFollowMarket } from '../api/odds';
import { tierChances } from '../lib/chance';

/** Each tier's own chance per item drawn, from the published odds (docs/product.md#lootboxes). */
export function RarityBars() {
  const { data: odds, isError } = useOdds();
  useOddsFollowMarket();
  const onSale = odds?.elusiveOnSale;

  return (
    <section className="lootbox-card lootbox-card--dark" aria-labelledby="chances-title">
      <h2 id="chances-title">Chances</h2>
      {!odds ? (
        <p className="muted">{isError ? 'The chances could not be loaded.' : 'Loading...'}</p>
      ) : (
        <ul className="rarity-bars">
          {tierChances(odds, onSale).map(({ tier, percent, text }, i) => (
            <li key={tier} className="rarity-bars__row" data-tier={tier}>
              <RarityLabel rarity={i + 1} />
              <div
                className="rarity-bars__track"
                role="progressbar"
                aria-label={`${TIER_STYLE[tier].label} chance`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                aria-valuetext={text}
              >
                <div
                  className="rarity-bars__fill"
                  style={{ width: `${percent}%`, '--tier': TIER_STYLE[tier].colour } as CSSProperties}
                />
              </div>
              <span className="rarity-bars__value" data-testid={`chance-${tier}`}>
                {text}
              </span>
            </li>
          ))}
        </ul>
      )}
      {onSale !== undefined && (
        <p className="rarity-bars__note">
          Each item of a box is drawn on its own. The elusive chance is 1/(10 × (1 + {onSale})) %: it falls as more
          elusive items go on sale ({onSale} now).
        </p>
      )}
    </section>
  );
}
