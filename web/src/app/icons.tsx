import { ICON_PATHS as PATHS, type IconName } from '../../../common/shell';

export type { IconName };

/** Decorative: the control around it carries the accessible name. */
export function Icon({ name, size = 22 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
