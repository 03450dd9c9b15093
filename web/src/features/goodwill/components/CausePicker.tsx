import { useState } from 'react';
import { GOODWILL_TYPES, type GoodWillType } from '../../../../../common/constants';
import { GOODWILL_LABELS } from '../../../../../common/goodwill';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useCause, useChooseCause } from '../api/goodwill';

export const TEXT = { fetchFailed: 'Failed to fetch data.', updateFailed: 'Failed to update goodwill data.' } as const;

/** The six causes as a radio group; a pick is saved at once and applies to the next spends. */
export function CausePicker() {
  const cause = useCause(true);
  const choose = useChooseCause();
  const [failed, setFailed] = useState(false);
  // The pick shows at once; a failed save puts the saved cause back.
  const [picked, setPicked] = useState<GoodWillType | null>(null);

  if (cause.isPending) return <p className="loading">Loading...</p>;
  if (cause.isError) return <LoadFailed text={TEXT.fetchFailed} onRetry={() => void cause.refetch()} />;

  const pick = async (value: GoodWillType) => {
    setFailed(false);
    setPicked(value);
    try {
      await choose.run(value);
    } catch {
      setFailed(true);
    } finally {
      setPicked(null);
    }
  };

  const shown = picked ?? cause.data;
  return (
    <fieldset className="goodwill__causes" aria-busy={choose.isPending}>
      <legend>Your cause</legend>
      {GOODWILL_TYPES.map((c) => (
        <label key={c} className={`goodwill__cause${shown === c ? ' goodwill__cause--on' : ''}`}>
          <input type="radio" name="goodwill" value={c} checked={shown === c} onChange={() => void pick(c)} />
          {GOODWILL_LABELS[c]}
        </label>
      ))}
      {failed && (
        <p className="form-error" role="alert">
          {TEXT.updateFailed}
        </p>
      )}
    </fieldset>
  );
}
