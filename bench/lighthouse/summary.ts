/** The figures the Lighthouse benchmark prints, read from one report; pure, so it is tested without a browser. */

export interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Milliseconds. */
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  /** Bytes of JavaScript on the wire (compressed when the server compressed it) and after decoding. */
  jsTransfer: number;
  jsResource: number;
  totalTransfer: number;
  /** Bytes of images on the wire (the pictures and the faces). */
  imageTransfer: number;
  lcpElement?: string;
  shifts: string[];
}

/** The part of a Lighthouse result this file reads (structurally, so a test can hand it a small object). */
export interface ReportLike {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number; details?: unknown } | undefined>;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

interface NodeLike {
  type?: string;
  selector?: string;
  snippet?: string;
}

const score = (r: ReportLike, id: string) => Math.round((r.categories[id]?.score ?? 0) * 100);
const numeric = (r: ReportLike, id: string) => r.audits[id]?.numericValue ?? NaN;
const itemsOf = (details: unknown): unknown[] =>
  details && typeof details === 'object' && Array.isArray((details as { items?: unknown }).items)
    ? (details as { items: unknown[] }).items
    : [];

/** Every node named anywhere under a details object (Lighthouse nests them in lists of tables). */
function nodesIn(details: unknown, found: NodeLike[] = []): NodeLike[] {
  if (Array.isArray(details)) details.forEach((d) => nodesIn(d, found));
  else if (details && typeof details === 'object') {
    const o = details as NodeLike & Record<string, unknown>;
    if (o.type === 'node') found.push(o);
    else Object.values(o).forEach((v) => nodesIn(v, found));
  }
  return found;
}

const describe = (n: NodeLike) => `${n.selector ?? '?'} ${n.snippet ?? ''}`.trim();

export function runSummary(r: ReportLike): RunFigures {
  const requests = itemsOf(r.audits['network-requests']?.details) as NetworkItem[];
  const scripts = requests.filter((q) => q.resourceType === 'Script');
  const sum = (list: NetworkItem[], key: 'transferSize' | 'resourceSize') =>
    list.reduce((s, q) => s + (q[key] ?? 0), 0);
  const shiftItems = itemsOf(r.audits['layout-shifts']?.details) as { node?: NodeLike; score?: number }[];
  return {
    performance: score(r, 'performance'),
    accessibility: score(r, 'accessibility'),
    bestPractices: score(r, 'best-practices'),
    lcp: numeric(r, 'largest-contentful-paint'),
    fcp: numeric(r, 'first-contentful-paint'),
    tbt: numeric(r, 'total-blocking-time'),
    cls: numeric(r, 'cumulative-layout-shift'),
    jsTransfer: sum(scripts, 'transferSize'),
    jsResource: sum(scripts, 'resourceSize'),
    totalTransfer: sum(requests, 'transferSize'),
    imageTransfer: sum(
      requests.filter((q) => q.resourceType === 'Image'),
      'transferSize',
    ),
    lcpElement: nodesIn(r.audits['largest-contentful-paint-element']?.details).map(describe)[0],
    shifts: shiftItems.map((s) => `${(s.score ?? 0).toFixed(3)} ${s.node ? describe(s.node) : '(unknown element)'}`),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
