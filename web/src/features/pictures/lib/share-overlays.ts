import { formatMoney } from '../../../../../common/money';
import { formatTrending } from '../../../../../common/trending';

/** The Share Image page's overlays, with its default transparency (opacity) each (docs/product.md#share). */
export const OVERLAYS = ['logo', 'pricetag', 'fire', 'trophy'] as const;
export type OverlayName = (typeof OVERLAYS)[number];

export const DEFAULT_OPACITY: Record<OverlayName, number> = { fire: 0.75, trophy: 0.9, pricetag: 0.9, logo: 0.5 };

export const OVERLAY_LABELS: Record<OverlayName, string> = {
  logo: 'Logo',
  pricetag: 'Price tag',
  fire: 'Fire',
  trophy: 'Trophy',
};

/** Where each overlay sits, as fractions of the picture: x, y of its top-left corner and its width. */
export const OVERLAY_BOX: Record<OverlayName, { x: number; y: number; w: number }> = {
  logo: { x: 0.04, y: 0.04, w: 0.14 },
  trophy: { x: 0.8, y: 0.04, w: 0.16 },
  fire: { x: 0.04, y: 0.8, w: 0.3 },
  pricetag: { x: 0.56, y: 0.84, w: 0.4 },
};

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const svg = (w: number, h: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;

/**
 * Each overlay is one SVG: the page shows it as an image and the export draws the same image on its canvas, so
 * what is seen is what is shared.
 */
export function overlaySvg(name: OverlayName, figures: { total: number; score: number }): string {
  switch (name) {
    case 'logo':
      return svg(
        32,
        32,
        '<rect width="32" height="32" rx="7" fill="#0f766e"/><path d="M8 9h16v3h-6.5v12h-3V12H8z" fill="#fff"/>',
      );
    case 'trophy':
      return svg(
        48,
        48,
        '<circle cx="24" cy="24" r="23" fill="#fff4c2" stroke="#e4b01c" stroke-width="2"/>' +
          '<g transform="translate(12 11)" fill="#b8860b"><path d="M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V17h3v3H8v-3h3v-2.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3zm0 4H6v1a2 2 0 0 0 1 1.7zm10 0v2.7A2 2 0 0 0 18 8V7z"/></g>',
      );
    case 'fire': {
      const text = escape(formatTrending(figures.score));
      return svg(
        120,
        40,
        '<rect width="120" height="40" rx="20" fill="#fff1e6"/>' +
          '<path transform="translate(8 8)" d="M12 2c1 3.5 5 5.5 5 10.5A5 5 0 0 1 12 22a5 5 0 0 1-5-5c0-2.6 1.6-4 2.5-5.5.3 1.6 1 2.5 2 3C11 11 11 6 12 2z" fill="#c2410c"/>' +
          `<text x="38" y="27" font-family="system-ui, sans-serif" font-size="18" font-weight="800" fill="#c2410c">${text}</text>`,
      );
    }
    case 'pricetag': {
      const text = escape(formatMoney(figures.total));
      return svg(
        160,
        44,
        '<path d="M6 0h132a22 22 0 0 1 0 44H6a6 6 0 0 1-6-6V6a6 6 0 0 1 6-6z" fill="#e8f6f2" stroke="#0b5d55" stroke-width="2"/>' +
          `<text x="80" y="29" text-anchor="middle" font-family="system-ui, sans-serif" font-size="20" font-weight="800" fill="#0b5d55">${text}</text>`,
      );
    }
  }
}

export const svgDataUrl = (markup: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
