import type { DonationStatus } from '../../../../../common/charity';
import { STATUS_LABEL, toggleStatus } from '../lib/status';

/** Multi-select status filters: each chip toggles; none on means every status is shown. */
export function StatusChips({
  offered,
  selected,
  onChange,
}: {
  offered: readonly DonationStatus[];
  selected: ReadonlySet<DonationStatus>;
  onChange: (next: Set<DonationStatus>) => void;
}) {
  return (
    <div className="donations__chips" role="group" aria-label="Filter by status">
      {offered.map((s) => (
        <button
          key={s}
          type="button"
          className={selected.has(s) ? 'chip chip--on' : 'chip'}
          aria-pressed={selected.has(s)}
          onClick={() => onChange(toggleStatus(selected, s))}
        >
          {STATUS_LABEL[s]}
        </button>
      ))}
    </div>
  );
}
