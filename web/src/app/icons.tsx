const PATHS = {
  wall: 'M3 3h8v8H3zM13 3h8v8h-8zM3 13h8v8H3zM13 13h8v8h-8z',
  login: 'M10 17l5-5-5-5v3H3v4h7zM13 3h6a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-6v-2h6V5h-6z',
  upload: 'M11 16V7.8L7.4 11.4 6 10l6-6 6 6-1.4 1.4L13 7.8V16zM5 18h14v2H5z',
  chat: 'M4 4h16v12H8l-4 4z',
  menu: 'M3 6h18v2H3zM3 11h18v2H3zM3 16h18v2H3z',
  bell: 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zM18 16v-5a6 6 0 0 0-5-5.9V4h-2v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 20c0-4 4-6 8-6s8 2 8 6z',
  lootbox: 'M3 10h18v10H3zM4.5 4h15L21 9H3zM11 12h2v3h-2z',
  items: 'M6 8h12l1 13H5zM9 8a3 3 0 0 1 6 0h-2a1 1 0 0 0-2 0z',
  store: 'M4 4h16l1 5H3zM5 10h14v10H5zm4 4v6h6v-6z',
  wallet: 'M3 6h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H3zM15 12h4v3h-4zM5 3h11v2H5z',
} as const;

export type IconName = keyof typeof PATHS;

/** Decorative: the control around it carries the accessible name. */
export function Icon({ name, size = 22 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
