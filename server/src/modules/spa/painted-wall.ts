import { brandOf, type Tenant } from '../../../../common/brand';
import type { Picture } from '../../../../common/api/pictures';
import { helpFor } from '../../../../common/help';
import { formatMoney } from '../../../../common/money';
import {
  BAR_AFTER_MENU,
  BAR_FIRST_ROW,
  BAR_MAX,
  BAR_MIN,
  CHEVRON_PATHS,
  GOOD_TO_KNOW,
  ICON_PATHS,
  MENU,
  TROPHY_PATH,
  WALL_PANEL,
  priceTagWidth,
  type BarItem,
  type IconName,
} from '../../../../common/shell';
import { WALL_SIZES } from '../../../../common/wall';

/*
 * The wall painted by the server (docs/decisions.md "Issue 28: the wall painted by the server"): what the web client's
 * first render shows a visitor on `/`, written as the same elements with the same classes and attributes
 * (web/src/app/Shell.tsx, Header.tsx, MainMenu.tsx, BottomBar.tsx, web/src/pages/WallPage.tsx and the wall's first
 * card, web/src/features/pictures/components/PictureCard.tsx), so the page paints its first picture before any script
 * has run and nothing moves when the client hydrates it. No whitespace between elements: React writes
 * none, and between inline blocks it would take room. e2e/painted-wall.spec.ts compares the two in the browser.
 *
 * Everything a user wrote (a title, a name) and every address goes through `escapeHtml`.
 */

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Attrs = Record<string, string | number | boolean | undefined>;

/** An element: attributes in the given order (false or undefined left out, true as a bare name), children as HTML. */
function el(tag: string, attrs: Attrs, ...children: string[]): string {
  const list = Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeHtml(String(v))}"`))
    .join('');
  return `<${tag}${list}>${children.join('')}</${tag}>`;
}

/** A void element (no children, no end tag). */
const bare = (tag: string, attrs: Attrs) => el(tag, attrs).replace(`</${tag}>`, '');

const svg = (d: string, size: number, focusable = true) =>
  el(
    'svg',
    {
      width: size,
      height: size,
      viewBox: '0 0 24 24',
      'aria-hidden': 'true',
      focusable: focusable ? 'false' : undefined,
    },
    el('path', { d, fill: 'currentColor' }),
  );

const icon = (name: IconName) => svg(ICON_PATHS[name], 22);

function header(tenant: Tenant): string {
  const title = brandOf(tenant).title;
  const help = helpFor('/');
  return el(
    'header',
    { class: 'header' },
    el(
      'a',
      { class: 'brand', 'aria-label': `${title}, home`, href: '/' },
      bare('img', { src: '/favicon.svg', width: 28, height: 28, alt: '' }),
      el('span', { class: 'brand__name' }, escapeHtml(title)),
    ),
    el(
      'nav',
      { class: 'wall-toggle', 'aria-label': 'Wall' },
      el('a', { 'aria-current': 'page', class: 'wall-toggle__link wall-toggle__link--active', href: '/' }, 'TOP'),
      el('a', { class: 'wall-toggle__link', href: '/trending' }, 'TRENDING'),
    ),
    el(
      'div',
      { class: 'header__end' },
      el('button', { type: 'button', class: 'help-button', 'aria-label': `Help: ${help}`, 'data-tip': help }, '?'),
      el('button', { type: 'button', class: 'button button--primary sign-in' }, 'SIGN IN'),
    ),
  );
}

function sidePanel(): string {
  const items = MENU.map((item) => {
    // A visitor's PROFILE goes to the phone's profile page (web/src/app/MainMenu.tsx).
    const to = item.to === '/profile' ? '/mobile-profile' : item.to;
    const active = to === '/';
    return el(
      'a',
      {
        'aria-current': active ? 'page' : undefined,
        class: active ? 'main-menu__item main-menu__item--active' : 'main-menu__item',
        href: to,
      },
      icon(item.icon),
      el('span', {}, escapeHtml(item.label)),
    );
  });
  return el(
    'aside',
    { class: 'side-panel', 'aria-label': 'Side panel' },
    el('nav', { class: 'main-menu', 'aria-label': 'Main' }, ...items),
  );
}

function rightPanel(): string {
  return el(
    'aside',
    { class: 'right-panel', 'aria-label': 'Right panel' },
    el(
      'section',
      { class: 'panel extra-panel', 'aria-label': 'About the wall', 'data-testid': 'extra-panel' },
      el('h2', {}, escapeHtml(WALL_PANEL.title)),
      ...WALL_PANEL.lines.map((line) => el('p', {}, escapeHtml(line))),
    ),
    el(
      'section',
      { class: 'panel', 'aria-label': 'Good to know' },
      el('h2', {}, escapeHtml(GOOD_TO_KNOW.title)),
      el('p', {}, escapeHtml(GOOD_TO_KNOW.line)),
      el(
        'p',
        {},
        escapeHtml(GOOD_TO_KNOW.logBefore),
        el('a', { href: '/moderation-log' }, escapeHtml(GOOD_TO_KNOW.logLink)),
        '.',
      ),
    ),
  );
}

function bottomBar(): string {
  const item = (it: BarItem) => {
    const active = it.to === '/';
    return el(
      'a',
      {
        'aria-label': it.name ?? it.label,
        'data-tip': it.name ?? it.label,
        'aria-current': active ? 'page' : undefined,
        class: active ? 'bar-item bar-item--active' : 'bar-item',
        href: it.to,
      },
      icon(it.icon),
      el('span', { class: 'bar-item__label' }, escapeHtml(it.label)),
    );
  };
  const button = (label: string, name: string, tip: string, glyph: IconName, expanded?: string) =>
    el(
      'button',
      { type: 'button', class: 'bar-item', 'aria-label': name, 'aria-expanded': expanded, 'data-tip': tip },
      icon(glyph),
      el('span', { class: 'bar-item__label' }, label),
    );
  // The visitor's bar at its lowest height: one row (the second shows only when dragged taller).
  return el(
    'nav',
    {
      class: 'bottom-bar',
      'aria-label': 'Main',
      style: `height:${BAR_MIN}px`,
      'data-testid': 'bottom-bar',
      'data-expanded': 'false',
    },
    el('div', {
      class: 'bottom-bar__handle',
      role: 'slider',
      tabindex: 0,
      'aria-label': 'Menu bar height',
      'aria-valuemin': BAR_MIN,
      'aria-valuemax': BAR_MAX,
      'aria-valuenow': BAR_MIN,
      'data-testid': 'bottom-bar-handle',
    }),
    el(
      'div',
      { class: 'bottom-bar__row' },
      item(BAR_FIRST_ROW[0]!),
      button('Login', 'Login', 'Login', 'login'),
      ...BAR_FIRST_ROW.slice(1).map(item),
      button('Menu', 'More menu', 'Menu', 'menu', 'false'),
      ...BAR_AFTER_MENU.map(item),
    ),
  );
}

const dock = () =>
  el(
    'div',
    { class: 'floating-dock' },
    el(
      'div',
      { class: 'chat-bubble' },
      el(
        'button',
        { type: 'button', class: 'chat-bubble__button', 'aria-label': 'Open chat' },
        svg(ICON_PATHS.chat, 26, false),
      ),
    ),
  );

/** How React's server rendering marks a completed Suspense boundary. */
const SUSPENSE_OPEN = '<!--$-->';
const SUSPENSE_CLOSE = '<!--/$-->';

/** The card of the top wall's first picture, as PictureCard draws it with `priority` (its image loads first). */
export function paintedCard(picture: Picture, hasNext: boolean): string {
  const label = picture.title || `Picture by ${picture.authorName}`;
  const detail = `/image/top/${picture.id}?index=0`;
  const total = formatMoney(picture.totalAmount);
  const { sources } = picture;
  const image = el(
    'picture',
    { style: 'display:contents' },
    sources ? bare('source', { type: 'image/avif', srcset: sources.avif, sizes: WALL_SIZES }) : '',
    sources ? bare('source', { type: 'image/webp', srcset: sources.webp, sizes: WALL_SIZES }) : '',
    bare('img', {
      src: picture.url,
      srcset: sources?.jpeg,
      sizes: sources ? WALL_SIZES : undefined,
      alt: label,
      width: picture.width,
      height: picture.height,
      loading: 'eager',
      fetchpriority: 'high',
    }),
  );
  return el(
    'article',
    {
      class: 'picture-card',
      'aria-label': `${label}, place 1`,
      'data-testid': 'picture-card',
      'data-picture-id': picture.id,
      'data-index': 0,
    },
    el(
      'header',
      { class: 'picture-card__head' },
      el(
        'span',
        { class: 'rank-badge rank-badge--trophy', role: 'img', 'aria-label': 'Place 1, trophy', title: '#1' },
        svg(TROPHY_PATH, 22),
        el('span', { class: 'rank-badge__number', 'aria-hidden': 'true' }, '1'),
      ),
      el(
        'a',
        { class: 'author-link', 'aria-label': `${picture.authorName}'s profile`, href: `/profile/${picture.authorId}` },
        // No `src`: the face comes from the client's image cache once the picture is in (the default face before).
        bare('img', { class: 'avatar', width: 32, height: 32, alt: '' }),
        el('span', { class: 'author-link__name' }, escapeHtml(picture.authorName)),
      ),
      el(
        'div',
        { class: 'price-tag-wrap' },
        el(
          'button',
          {
            type: 'button',
            class: 'price-tag',
            style: `min-width:${priceTagWidth(picture.totalAmount)}px`,
            'aria-label': `${total} on this picture, add money`,
            'data-testid': 'price-tag',
          },
          el('span', { class: 'price-tag__amount' }, escapeHtml(total)),
          el('span', { class: 'price-tag__plus', 'aria-hidden': 'true' }, '+'),
        ),
      ),
    ),
    el(
      'div',
      { class: 'picture-card__media' },
      el('a', { 'aria-label': `Open ${label}`, href: detail }, image),
      hasNext
        ? el(
            'button',
            { type: 'button', class: 'card-arrow card-arrow--right', 'aria-label': 'Next picture' },
            svg(CHEVRON_PATHS.right, 22),
          )
        : '',
    ),
    picture.commentCount > 0
      ? el(
          'footer',
          { class: 'picture-card__foot' },
          el(
            'a',
            { class: 'comment-count', 'aria-label': `${picture.commentCount} comments`, href: detail },
            svg(ICON_PATHS.chat, 16),
            String(picture.commentCount),
          ),
        )
      : '',
  );
}

/**
 * The inside of `#root` for a visitor on `/` whose wall starts with `batch` (the top wall's first batch, not empty):
 * the shell and the first card, which the client hydrates (web/src/main.tsx): so this must be exactly what its first
 * render draws, down to the attributes (in production React does not correct an attribute while hydrating). `aria-disabled` on the painted shell says what is true until the client takes over
 * (its buttons do nothing yet; links still navigate), and makes browser tests wait for the client's own controls.
 */
export function paintWall(tenant: Tenant, batch: Picture[]): string {
  const [first] = batch;
  if (!first) return '';
  // The card's next arrow: a second picture in the batch, or (a full batch) more to load.
  const card = paintedCard(first, batch.length > 1);
  const main = el(
    'main',
    { class: 'shell__main', id: 'main' },
    // The shell's Suspense around the page, as React's own server rendering marks a boundary that has its content:
    // hydration looks for these two comments.
    SUSPENSE_OPEN,
    el(
      'section',
      { class: 'wall-page', 'aria-labelledby': 'wall-title' },
      el('h1', { id: 'wall-title', class: 'wall-page__title' }, 'Top wall'),
      el('div', { class: 'wall' }, el('div', { class: 'wall__edge', 'aria-hidden': 'true' }), card),
    ),
    SUSPENSE_CLOSE,
  );
  return el(
    'div',
    { class: 'shell', 'aria-disabled': 'true' },
    header(tenant),
    el('div', { class: 'shell__body' }, sidePanel(), main, rightPanel()),
    bottomBar(),
    dock(),
  );
}

/** The first batch as JSON inside `<script type="application/json">`: no `<` in it can close the element. */
export const batchJson = (batch: Picture[]): string =>
  JSON.stringify(batch)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
