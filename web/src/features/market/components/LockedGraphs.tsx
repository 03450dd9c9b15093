import { GRAPH_UNLOCK_PRICE } from '../../../../../common/market';
import exampleGraph from '../../../assets/graph-example.svg';
import { openPopup } from '../../../lib/popups';
import { useProfile } from '../../users/api/profile';
import { useUnlockGraphs } from '../api/trade-data';
import { isShortBalance } from '../lib/failures';

/**
 * The graphs before the user paid for them (the server answers 403): a blurred example and the unlock button. With
 * less than $1 the top-up popup opens for the difference without asking the server (docs/product.md#graphs).
 */
export function LockedGraphs() {
  const { data: profile } = useProfile();
  const unlock = useUnlockGraphs();

  const onUnlock = async () => {
    const balance = profile?.balance ?? 0;
    if (balance < GRAPH_UNLOCK_PRICE) {
      openPopup({ kind: 'addMoney', missing: GRAPH_UNLOCK_PRICE - balance });
      return;
    }
    try {
      await unlock.run({ balance });
    } catch (err) {
      // docs/product.md#graphs: a failed graph purchase is only logged (a 402 has opened the top-up popup).
      if (!isShortBalance(err)) console.warn('graph unlock failed', err);
    }
  };

  return (
    <div className="locked-graphs" data-testid="locked-graphs">
      <img className="locked-graphs__example" src={exampleGraph} alt="" width={640} height={300} />
      <div className="locked-graphs__overlay">
        <button
          type="button"
          className="button button--primary locked-graphs__button"
          disabled={unlock.isPending || profile === undefined}
          onClick={() => void onUnlock()}
        >
          $1 Unlock all graphs
        </button>
        <p className="locked-graphs__note">One payment opens the price graphs of every item.</p>
      </div>
    </div>
  );
}
