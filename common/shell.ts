/**
 * What the web client's shell draws that the server also writes into the page it serves for `/` (the wall painted by
 * the server, docs/decisions.md "Issue 28: the wall painted by the server"): one source for both, so the painted page
 * and the client's first render are the same elements.
 */

/** The 24 × 24 paths of the shell's icons (web/src/app/icons.tsx). */
export const ICON_PATHS = {
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

export type IconName = keyof typeof ICON_PATHS;

/** The top list's trophy (web/src/features/pictures/components/Badges.tsx). */
export const TROPHY_PATH =
  'M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V17h3v3H8v-3h3v-2.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3zm0 4H6v1a2 2 0 0 0 1 1.7zm10 0v2.7A2 2 0 0 0 18 8V7z';

/** A card's arrows (web/src/features/pictures/components/PictureCard.tsx). */
export const CHEVRON_PATHS = {
  left: 'M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z',
  right: 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z',
} as const;

export interface NavItem {
  label: string;
  to: string;
  icon: IconName;
  /** Logged out, it opens the sign-in popup instead of navigating. */
  needsLogin: boolean;
}

/** The desktop side panel's menu of docs/product.md#shell; PROFILE's path depends on the user. */
export const MENU: NavItem[] = [
  { label: 'THE WALL', to: '/', icon: 'wall', needsLogin: false },
  { label: 'LOOTBOXES', to: '/lootboxes', icon: 'lootbox', needsLogin: true },
  { label: 'INVENTORY', to: '/my-items', icon: 'items', needsLogin: true },
  { label: 'STORE', to: '/item-store', icon: 'store', needsLogin: true },
  { label: 'CHAT', to: '/chat', icon: 'chat', needsLogin: true },
  { label: 'PROFILE', to: '/profile', icon: 'profile', needsLogin: true },
];

/** An entry of the phone's bottom bar (web/src/app/BottomBar.tsx). */
export interface BarItem {
  /** What the bar prints: short, so seven items fit a 320 px phone (docs/decisions.md). */
  label: string;
  /** The accessible name, when the printed label is a short form of it; it starts with the label. */
  name?: string;
  to: string;
  icon: IconName;
  needsLogin: boolean;
}

/** The bar's first row: these, then Login (logged out), then the menu button, then AFTER_MENU. */
export const BAR_FIRST_ROW: BarItem[] = [
  { label: 'Wall', to: '/', icon: 'wall', needsLogin: false },
  { label: 'Upload', to: '/upload', icon: 'upload', needsLogin: true },
  { label: 'Chat', to: '/chat', icon: 'chat', needsLogin: true },
];
export const BAR_AFTER_MENU: BarItem[] = [
  { label: 'Alerts', name: 'Alerts: notifications', to: '/mobile-notifications', icon: 'bell', needsLogin: true },
  { label: 'Profile', to: '/mobile-profile', icon: 'profile', needsLogin: true },
];
export const BAR_SECOND_ROW: BarItem[] = [
  { label: 'Lootboxes', to: '/lootboxes', icon: 'lootbox', needsLogin: true },
  { label: 'My items', to: '/my-items', icon: 'items', needsLogin: true },
  { label: 'Store', to: '/item-store', icon: 'store', needsLogin: true },
];

/** The bar can be dragged between these heights; above the threshold it shows its second row (docs/product.md#limits). */
export const BAR_MIN = 87;
export const BAR_MAX = 135;
export const BAR_ENLARGE_AT = 88;

/** The right panel's words about the wall, beside the wall-like pages (web/src/app/Shell.tsx). */
export const WALL_PANEL = {
  title: 'How the wall works',
  lines: [
    'Every picture carries the money put on it. The more it holds, the higher it climbs.',
    'Trending favours recent money: a payment counts less with every minute.',
  ],
} as const;

/** The right panel's "Good to know", on every page; its last line ends in a link to the moderation log. */
export const GOOD_TO_KNOW = {
  title: 'Good to know',
  line: 'Half of everything spent here goes to a cause each spender picks.',
  logBefore: 'Every decision moderators make is in the public ',
  logLink: 'moderation log',
} as const;

/** The price tag's width in pixels: 15 times the natural log of the amount in cents, never narrower than its text needs. */
export const priceTagWidth = (cents: number): number => Math.max(64, Math.round(15 * Math.log(Math.max(1, cents))));
