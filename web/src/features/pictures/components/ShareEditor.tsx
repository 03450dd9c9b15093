import { useState } from 'react';
import { Link } from '../../../lib/router';
import { shareExportSize } from '../../../../../common/upload-rules';
import type { Picture } from '../../../../../common/api/pictures';
import { pictureLabel } from './PictureCard';
import { PictureImage } from './PictureImage';
import { PAGE_SIZES } from '../lib/page-sizes';
import { useNow } from '../lib/hooks';
import { scoreAt } from '../lib/rank';
import {
  DEFAULT_OPACITY,
  OVERLAY_BOX,
  OVERLAY_LABELS,
  OVERLAYS,
  overlaySvg,
  svgDataUrl,
  type OverlayName,
} from '../lib/share-overlays';

/**
 * The Share Image page's editor: the picture with four overlays whose transparency is set by sliders; the chosen
 * overlay comes to the front, and the result is exported as an image (shared, or downloaded).
 */
export function ShareEditor({ picture }: { picture: Picture }) {
  const [opacity, setOpacity] = useState<Record<OverlayName, number>>(DEFAULT_OPACITY);
  // Drawing order, last on top.
  const [order, setOrder] = useState<OverlayName[]>([...OVERLAYS]);
  const [selected, setSelected] = useState<OverlayName | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const now = useNow(1_000);
  const figures = { total: picture.totalAmount, score: scoreAt(picture, now) };

  const select = (name: OverlayName) => {
    setSelected(name);
    setOrder((o) => [...o.filter((n) => n !== name), name]);
  };

  const exportImage = async () => {
    setStatus('Preparing the image...');
    try {
      const blob = await renderShareImage(picture, order, opacity, figures);
      const file = new File([blob], `picture-${picture.id}.png`, { type: 'image/png' });
      if (navigator.canShare?.({ files: [file] })) {
        await navigator.share({ files: [file], title: pictureLabel(picture) });
        setStatus('Shared.');
        return;
      }
      console.info('Web Share is not supported here; downloading instead.');
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = file.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      setStatus('Downloaded.');
    } catch (err) {
      console.info('share failed', err);
      setStatus(undefined);
    }
  };

  return (
    <section className="page share" aria-labelledby="share-title">
      <h1 id="share-title">Share picture</h1>
      <div
        className="share__stage"
        style={{
          aspectRatio: `${picture.width} / ${picture.height}`,
          width: `min(100%, calc(70vh * ${picture.width / picture.height}))`,
        }}
        data-testid="share-stage"
        onClick={(e) => {
          if (e.target === e.currentTarget || (e.target as HTMLElement).classList.contains('share__image')) {
            setSelected(undefined);
          }
        }}
      >
        <PictureImage
          className="share__image"
          picture={picture}
          alt={pictureLabel(picture)}
          sizes={PAGE_SIZES}
          priority
        />
        {order.map((name, z) => {
          const box = OVERLAY_BOX[name];
          return (
            <button
              key={name}
              type="button"
              className={`share__overlay${selected === name ? ' share__overlay--selected' : ''}`}
              style={{
                left: `${box.x * 100}%`,
                top: `${box.y * 100}%`,
                width: `${box.w * 100}%`,
                opacity: opacity[name],
                zIndex: z + 1,
              }}
              aria-label={`Select the ${OVERLAY_LABELS[name].toLowerCase()} overlay`}
              aria-pressed={selected === name}
              data-overlay={name}
              onClick={() => select(name)}
            >
              <img src={svgDataUrl(overlaySvg(name, figures))} alt="" />
            </button>
          );
        })}
      </div>
      <fieldset className="share__sliders">
        <legend>Transparency</legend>
        {OVERLAYS.map((name) => (
          <label key={name} className={`share__slider${selected === name ? ' share__slider--selected' : ''}`}>
            <span>{OVERLAY_LABELS[name]}</span>
            <input
              type="range"
              min={0}
              max={1}
              step={0.01}
              value={opacity[name]}
              aria-label={`${OVERLAY_LABELS[name]} transparency`}
              onChange={(e) => setOpacity((o) => ({ ...o, [name]: Number(e.target.value) }))}
              onFocus={() => select(name)}
            />
            <output>{opacity[name].toFixed(2)}</output>
          </label>
        ))}
      </fieldset>
      <div className="row">
        <Link to={`/image/detail/${picture.id}`} className="button">
          Back to the picture
        </Link>
        <button type="button" className="button button--primary" onClick={() => void exportImage()}>
          Share image
        </button>
        {status && (
          <span className="muted" role="status">
            {status}
          </span>
        )}
      </div>
    </section>
  );
}

const loadImage = (src: string) =>
  new Promise<HTMLImageElement>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${src.slice(0, 60)}`));
    img.src = src;
  });

/** Draws the picture and its overlays at the export size: the shorter side 1080, the longer at most 1920. */
export async function renderShareImage(
  picture: Picture,
  order: readonly OverlayName[],
  opacity: Record<OverlayName, number>,
  figures: { total: number; score: number },
): Promise<Blob> {
  const { width, height } = shareExportSize(picture.width, picture.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d')!;
  const photo = await loadImage(picture.url);
  // Cover: the picture fills the canvas, cropped around its centre if the cap cut its longer side.
  const scale = Math.max(width / photo.naturalWidth, height / photo.naturalHeight);
  const w = photo.naturalWidth * scale;
  const h = photo.naturalHeight * scale;
  g.drawImage(photo, (width - w) / 2, (height - h) / 2, w, h);
  for (const name of order) {
    const overlay = await loadImage(svgDataUrl(overlaySvg(name, figures)));
    const box = OVERLAY_BOX[name];
    const ow = box.w * width;
    const oh = (ow * overlay.naturalHeight) / overlay.naturalWidth;
    g.globalAlpha = opacity[name];
    g.drawImage(overlay, box.x * width, box.y * height, ow, oh);
  }
  g.globalAlpha = 1;
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('export failed'))), 'image/png'),
  );
}
