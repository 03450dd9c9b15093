/**
 * The layout check's text rule (e2e/layout-helpers.ts says what the family check is): a text node's painted box must
 * stay inside its box and every box around it, up to a scroll area (meant to hold more than it shows) or a box placed
 * on its own (a badge, a tooltip). Cut by `overflow: hidden` it is clipped, else it spills over its neighbours; text
 * cut with an ellipsis counts unless the element names its whole text (a title or an aria-label).
 *
 * Runs in the page: it may use nothing from this module's scope.
 */
export function measureText(): string[] {
  const problems: string[] = [];
  const doc = document.documentElement;
  interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  const box = (r: DOMRect | Box): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const w = (b: Box) => b.right - b.left;
  const h = (b: Box) => b.bottom - b.top;
  const px = (n: number) => Math.round(n);
  const where = (b: Box) => `[${px(b.left)},${px(b.top)} ${px(w(b))}×${px(h(b))}]`;
  const name = (el: Element): string => {
    const text = (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('title') || '')
      .replace(/\s+/g, ' ')
      .trim();
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
    return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${text ? ` "${text.slice(0, 40)}"` : ''}`;
  };
  const style = (el: Element) => getComputedStyle(el);
  const shown = (el: Element) =>
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
    !el.closest('[aria-hidden="true"], [inert]');
  const isScroller = (cs: CSSStyleDeclaration) => /auto|scroll/.test(cs.overflowY) || /auto|scroll/.test(cs.overflowX);
  // While a modal is open, the page behind it is out of reach by design.
  const modal = [...document.querySelectorAll('[role="dialog"][aria-modal="true"]')].filter(shown).at(-1);

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const told = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent!.replace(/\s+/g, ' ').trim();
    const parent = n.parentElement;
    if (!text || !parent || /^(SCRIPT|STYLE|NOSCRIPT|OPTION|TEXTAREA)$/.test(parent.tagName) || !shown(parent))
      continue;
    if (modal && !modal.contains(parent)) continue;
    if (parent.closest('svg')) continue;
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (rects.length === 0) continue;
    const t: Box = {
      left: Math.min(...rects.map((r) => r.left)),
      top: Math.min(...rects.map((r) => r.top)),
      right: Math.max(...rects.map((r) => r.right)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    // The box that holds the text: its nearest ancestor that is not inline.
    let holder: Element = parent;
    while (holder.parentElement && /^(inline|contents)$/.test(style(holder).display)) holder = holder.parentElement;
    if (told.has(holder)) continue;
    const hb = box(holder.getBoundingClientRect());
    if (w(hb) <= 1 || h(hb) <= 1) continue; // visually hidden on purpose, for screen readers
    const label = `"${text.slice(0, 40)}" in ${name(holder)}`;
    const hs = style(holder);
    // Any overflow of an ellipsis box is its ellipsis at work (scrollWidth rounds: a name 1.5 px too long can read
    // as 1 px over and still paint past the box by more than the 1 px the rule below allows).
    if (hs.textOverflow === 'ellipsis' && holder.scrollWidth > holder.clientWidth) {
      told.add(holder);
      const named = holder.closest('[title], [aria-label]');
      const whole = named?.getAttribute('title') || named?.getAttribute('aria-label');
      if (!whole || !whole.replace(/\s+/g, ' ').includes(text)) problems.push(`clipped: ${label} ends in …`);
      continue;
    }
    // The text must stay inside its holder and each box around it, up to a scroll area or a box placed on its own
    // (a badge, a tooltip: absolutely positioned on purpose).
    for (let a: Element | null = holder; a && a !== document.body && a !== doc; a = a.parentElement) {
      const cs = style(a);
      if (isScroller(cs)) break;
      if (cs.display === 'contents') continue; // no box of its own
      const ab = box(a.getBoundingClientRect());
      const outX = t.right > ab.right + 1 || t.left < ab.left - 1;
      const outY = t.bottom > ab.bottom + 2 || t.top < ab.top - 2;
      if (outX || outY) {
        told.add(holder);
        const hidden = (outX && cs.overflowX !== 'visible') || (outY && cs.overflowY !== 'visible');
        problems.push(
          hidden
            ? `clipped: ${label} needs ${where(t)}, ${name(a)} cuts it at ${where(ab)}`
            : `overflow: ${label} needs ${where(t)}, it spills out of ${name(a)} ${where(ab)}`,
        );
        break;
      }
      if (/absolute|fixed|sticky/.test(cs.position)) break;
    }
  }
  return [...new Set(problems)];
}
