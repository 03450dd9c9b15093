import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** "DEMO" as 5×7 block letters: drawn with rectangles, so no font has to be installed. */
const GLYPHS: Record<string, string[]> = {
  D: ['XXXX.', 'X...X', 'X...X', 'X...X', 'X...X', 'X...X', 'XXXX.'],
  E: ['XXXXX', 'X....', 'X....', 'XXXX.', 'X....', 'X....', 'XXXXX'],
  M: ['X...X', 'XX.XX', 'X.X.X', 'X.X.X', 'X...X', 'X...X', 'X...X'],
  O: ['.XXX.', 'X...X', 'X...X', 'X...X', 'X...X', 'X...X', '.XXX.'],
};

function blockText(text: string, x0: number, y0: number, cell: number, fill: string): string {
  const rects: string[] = [];
  [...text].forEach((ch, i) => {
    GLYPHS[ch]!.forEach((row, y) => {
      [...row].forEach((on, x) => {
        if (on === 'X') {
          rects.push(`<rect x="${x0 + (i * 6 + x) * cell}" y="${y0 + y * cell}" width="${cell}" height="${cell}"/>`);
        }
      });
    });
  });
  return `<g fill="${fill}">${rects.join('')}</g>`;
}

export interface DemoImage {
  bytes: Buffer;
  hash: string;
  width: number;
  height: number;
}

/** A colourful gradient with a few shapes and a large DEMO across it, as a JPEG. */
export async function demoImage(width: number, height: number, random: () => number): Promise<DemoImage> {
  const hue = Math.floor(random() * 360);
  const shapes: string[] = [];
  for (let i = 0; i < 7; i++) {
    const colour = `hsl(${(hue + 40 + Math.floor(random() * 200)) % 360}, 80%, ${45 + Math.floor(random() * 30)}%)`;
    const x = Math.floor(random() * width);
    const y = Math.floor(random() * height);
    const size = Math.floor((0.08 + random() * 0.25) * Math.min(width, height));
    shapes.push(
      random() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${colour}" fill-opacity="0.7"/>`
        : `<rect x="${x - size}" y="${y - size}" width="${size * 2}" height="${size * 1.4}" rx="${size / 5}" ` +
            `fill="${colour}" fill-opacity="0.65" transform="rotate(${Math.floor(random() * 90)} ${x} ${y})"/>`,
    );
  }
  const cell = Math.floor((width * 0.7) / 23);
  const textX = Math.floor((width - 23 * cell) / 2);
  const textY = Math.floor((height - 7 * cell) / 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue}, 85%, 55%)"/>
      <stop offset="1" stop-color="hsl(${(hue + 120) % 360}, 85%, 35%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    ${shapes.join('\n')}
    ${blockText('DEMO', textX + Math.ceil(cell / 4), textY + Math.ceil(cell / 4), cell, 'rgba(0,0,0,0.35)')}
    ${blockText('DEMO', textX, textY, cell, 'rgba(255,255,255,0.92)')}
  </svg>`;
  const bytes = await sharp(Buffer.from(svg)).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex'), width, height };
}
