// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from '../../../lib/router';
import { testRoot } from '../../../lib/test-root';
import { picture } from '../lib/picture.fixture';
import { loadPlaceholderDecoder } from '../lib/placeholder';
import { placeholderUrl } from '../lib/placeholder-decode';
import { PictureCard } from './PictureCard';
import { WALL_SIZES } from './PictureImage';

const mount = testRoot();
// The author's face asks the image cache; nothing here needs it answered.
vi.stubGlobal(
  'fetch',
  vi.fn(() => new Promise(() => {})),
);

const HASH = 'a'.repeat(64);
const SOURCES = {
  avif: `/images/${HASH}-360.avif 360w, /images/${HASH}-720.avif 720w, /images/${HASH}-1080.avif 1080w`,
  webp: `/images/${HASH}-360.webp 360w, /images/${HASH}-720.webp 720w, /images/${HASH}-1080.webp 1080w`,
  jpeg: `/images/${HASH}-360.jpg 360w, /images/${HASH}-720.jpg 720w, /images/${HASH}.jpg 1080w`,
};
/** A ThumbHash as the server makes it (image.ts), of a 3:4 photo. */
const THUMB = 'I/gBBQA0f4iG90fWaE+2yf1vAag6';

const withVariants = (over = {}) =>
  picture(7, 500, 0, {
    url: `/images/${HASH}.jpg`,
    width: 1080,
    height: 1350,
    sources: SOURCES,
    placeholder: THUMB,
    ...over,
  });

const card = (p = withVariants(), priority = false) =>
  mount.render(
    <QueryClientProvider client={new QueryClient()}>
      <BrowserRouter>
        <PictureCard picture={p} sort="top" index={0} browsing="top" priority={priority} />
      </BrowserRouter>
    </QueryClientProvider>,
  );

describe('a picture card', () => {
  it('offers AVIF and WebP sources and the JPEG srcset, sized for the wall, and lazy below the first card', () => {
    card();
    const pic = mount.host().querySelector('picture')!;
    const sources = [...pic.querySelectorAll('source')];
    expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources.map((s) => s.getAttribute('srcset'))).toEqual([SOURCES.avif, SOURCES.webp]);
    expect(sources.every((s) => s.getAttribute('sizes') === WALL_SIZES)).toBe(true);
    const img = pic.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(`/images/${HASH}.jpg`);
    expect(img.getAttribute('srcset')).toBe(SOURCES.jpeg);
    expect(img.getAttribute('sizes')).toBe(WALL_SIZES);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1080', '1350']);
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('fetchpriority')).toBeNull();
    expect(WALL_SIZES).toMatch(/^\(max-width: \d+px\) calc\(100vw - \d+px\), \d+px$/);
  });

  it('loads the first card at once and first', () => {
    card(withVariants(), true);
    const img = mount.host().querySelector<HTMLImageElement>('picture img')!;
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });

  it('paints the ThumbHash once its decoder (a chunk of its own) is in, until the image has loaded', async () => {
    card();
    await act(() => loadPlaceholderDecoder());
    const img = mount.host().querySelector('picture img') as HTMLImageElement;
    const blur = placeholderUrl(THUMB)!;
    expect(blur).toMatch(/^data:image\/png;base64,/);
    expect(img.style.backgroundImage).toContain(blur);
    act(() => {
      img.dispatchEvent(new Event('load', { bubbles: false }));
    });
    expect(img.style.backgroundImage).toBe('');
  });

  it('decodes each placeholder once', async () => {
    await loadPlaceholderDecoder();
    expect(placeholderUrl(THUMB)).toBe(placeholderUrl(THUMB));
    expect(placeholderUrl('not base64!')).toBeUndefined();
  });

  it('shows a picture from before variants as its one JPEG, with no sources and no placeholder', () => {
    card(withVariants({ sources: null, placeholder: null }));
    expect(mount.host().querySelectorAll('source')).toHaveLength(0);
    const img = mount.host().querySelector<HTMLImageElement>('picture img')!;
    expect(img.getAttribute('src')).toBe(`/images/${HASH}.jpg`);
    expect(img.getAttribute('srcset')).toBeNull();
    expect(img.getAttribute('sizes')).toBeNull();
    expect(img.style.backgroundImage).toBe('');
  });
});
