import type { Page } from '@playwright/test';
import { measureText } from './layout-text';

/**
 * The layout family check (issue 22): what a person calls a broken screen, measured in the page.
 *
 * - overlap: two visible controls (buttons, links, inputs, selects, textareas, [role=button|tab|slider]) of the same
 *   layer cross by more than 2 px. A small control lying wholly on a larger one and on top of it (an arrow on a
 *   picture) is a design. While a panel or a menu is open, its controls are measured, and a floating control lying on
 *   one of them is an overlap (the notification bubble on the chat panel's composer).
 * - covered: a page control that no scroll position brings out from under the floating layer (the sticky header, the
 *   bottom bar, the floating bubbles). A page whose content ends above the bottom bar is a one-screen page: a person
 *   does not scroll it, so there only its place on the screen counts. A floating control whose middle another
 *   element takes (a bubble on a bar item) is covered too.
 * - sideways: the document is wider than the viewport (the page scrolls sideways).
 * - small target: a control under 24 × 24 px (WCAG 2.2 target size minimum); a link inside running text, and a
 *   checkbox or radio whose label is at least 24 px, are exempt, as WCAG exempts them.
 * - clipped / overflow: text leaving its box (layout-text.ts).
 *
 * While a modal dialog is open only its controls are measured: the page behind it is out of reach by design.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  return [...(await page.evaluate(measureControls)), ...(await page.evaluate(measureText))];
}

/** Two frames, so a resize or a scroll has been laid out and painted. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/** Controls and the page's width. Runs in the page: it may use nothing from this module's scope. */
function measureControls(): string[] {
  const problems: string[] = [];
  const doc = document.documentElement;
  const W = doc.clientWidth;
  const H = window.innerHeight;
  const CONTROLS =
    'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="slider"]';
  const TINY = 2; // px of crossing that is only borders touching

  interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  const box = (r: DOMRect | Box): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const cross = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const w = (b: Box) => b.right - b.left;
  const h = (b: Box) => b.bottom - b.top;
  const px = (n: number) => Math.round(n);

  const name = (el: Element): string => {
    const text = (
      el.getAttribute('aria-label') ||
      (el as HTMLElement).innerText ||
      el.getAttribute('placeholder') ||
      el.getAttribute('title') ||
      el.getAttribute('data-testid') ||
      ''
    )
      .replace(/\s+/g, ' ')
      .trim();
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
    return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${text ? ` "${text.slice(0, 40)}"` : ''}`;
  };
  const where = (b: Box) => `[${px(b.left)},${px(b.top)} ${px(w(b))}×${px(h(b))}]`;

  const style = (el: Element) => getComputedStyle(el);
  const shown = (el: Element) =>
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
    !el.closest('[aria-hidden="true"], [inert]');
  const isScroller = (cs: CSSStyleDeclaration) => /auto|scroll/.test(cs.overflowY) || /auto|scroll/.test(cs.overflowX);

  /** The part of el that its clipping ancestors let show (a fixed element escapes the clips above it). */
  const visibleBox = (el: Element): Box => {
    let b = box(el.getBoundingClientRect());
    if (style(el).position === 'fixed') return b;
    for (let a = el.parentElement; a && a !== doc && a !== document.body; a = a.parentElement) {
      const cs = style(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const ab = box(a.getBoundingClientRect());
        if (cs.overflowX !== 'visible')
          b = { ...b, left: Math.max(b.left, ab.left), right: Math.min(b.right, ab.right) };
        if (cs.overflowY !== 'visible')
          b = { ...b, top: Math.max(b.top, ab.top), bottom: Math.min(b.bottom, ab.bottom) };
      }
      if (cs.position === 'fixed') break;
    }
    return b;
  };

  /** The floating layer an element belongs to: its nearest fixed or sticky ancestor (or itself), else null. */
  const layerOf = (el: Element): Element | null => {
    for (let a: Element | null = el; a && a !== doc; a = a.parentElement) {
      const p = style(a).position;
      if (p === 'fixed' || p === 'sticky') return a;
    }
    return null;
  };

  /** The nearest scrolling box inside the page that holds el (a chat list, a popup), else null. */
  const scrollerOf = (el: Element): Element | null => {
    for (let a = el.parentElement; a && a !== doc && a !== document.body; a = a.parentElement) {
      if (isScroller(style(a)) && a.scrollHeight > a.clientHeight + 1) return a;
    }
    return null;
  };

  // An open modal is all a person can reach; an open panel or menu (the bubbles' panels, the account menu) lies on
  // the page on purpose, so then its controls are measured, and the floating controls that could lie on them.
  const modal = [...document.querySelectorAll('[role="dialog"][aria-modal="true"]')].filter(shown).at(-1);
  const panels = modal ? [modal] : [...document.querySelectorAll('[role="dialog"], [role="menu"]')].filter(shown);
  const scoped = panels.length > 0;
  const inScope = (el: Element) => !scoped || panels.some((p) => p.contains(el));

  // ---- the page scrolls sideways
  if (doc.scrollWidth > W + 1) {
    const wide = [...document.body.querySelectorAll('*')]
      .filter((el) => shown(el) && visibleBox(el).right > W + 1 && el.getBoundingClientRect().width > 0)
      .filter((el, _i, all) => !all.some((o) => o !== el && el.contains(o)))
      .slice(0, 3);
    problems.push(`sideways: the page is ${doc.scrollWidth}px wide: ${wide.map((el) => name(el)).join(', ')}`);
  }

  // ---- the controls
  interface Control {
    el: Element;
    all: Box;
    seen: Box;
    layer: Element | null;
  }
  const controls: Control[] = [];
  const outside: Control[] = [];
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (!shown(el)) continue;
    const all = box(el.getBoundingClientRect());
    const seen = visibleBox(el);
    if (w(seen) < 1 || h(seen) < 1) continue;
    // A label wrapping a hidden native input (a styled file or radio input) is the control a person sees.
    if (el instanceof HTMLInputElement && (w(all) <= 1 || h(all) <= 1)) continue;
    const c = { el, all, seen, layer: layerOf(el) };
    if (inScope(el)) controls.push(c);
    else if (!modal && c.layer) outside.push(c);
  }

  // small targets
  for (const c of controls) {
    if (w(c.all) >= 24 - 0.5 && h(c.all) >= 24 - 0.5) continue;
    const inline = style(c.el).display === 'inline';
    const inText =
      inline &&
      c.el.parentElement &&
      [...c.el.parentElement.childNodes].some(
        (n) => n !== c.el && n.nodeType === Node.TEXT_NODE && n.textContent!.trim(),
      );
    if (c.el.tagName === 'A' && inText) continue;
    // A checkbox or radio is toggled by its label too: the label is the target a person aims at.
    const labels = c.el instanceof HTMLInputElement ? [...(c.el.labels ?? [])] : [];
    if (labels.some((l) => l.getBoundingClientRect().width >= 24 && l.getBoundingClientRect().height >= 24)) continue;
    problems.push(`small target: ${name(c.el)} is ${px(w(c.all))}×${px(h(c.all))}px`);
  }

  // two controls of the same layer (both floating, or both in the page) crossing
  const related = (a: Element, b: Element) => a.contains(b) || b.contains(a);
  /** What a tap on the middle of the control reaches (undefined off screen). */
  const hitOf = (c: Control) => {
    const x = (c.seen.left + c.seen.right) / 2;
    const y = (c.seen.top + c.seen.bottom) / 2;
    if (x < 0 || y < 0 || x >= W || y >= H) return undefined;
    return document.elementFromPoint(x, y) ?? undefined;
  };
  const reaches = (c: Control, hit: Element) => c.el.contains(hit) || hit.contains(c.el);
  const onTop = (c: Control) => {
    const hit = hitOf(c);
    // A floating layer passing over both (the bottom bar over a card's arrow) says nothing about the two.
    return !hit || layerOf(hit) !== c.layer || reaches(c, hit);
  };
  const within = (inner: Box, outer: Box) =>
    inner.left >= outer.left - 1 &&
    inner.right <= outer.right + 1 &&
    inner.top >= outer.top - 1 &&
    inner.bottom <= outer.bottom + 1;
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i]!;
      const b = controls[j]!;
      if (!a.layer !== !b.layer || related(a.el, b.el)) continue;
      const x = cross(a.seen, b.seen);
      if (w(x) <= TINY || h(x) <= TINY) continue;
      const [small, big] = w(a.seen) * h(a.seen) <= w(b.seen) * h(b.seen) ? [a, b] : [b, a];
      if (within(small.seen, big.seen) && onTop(small)) continue;
      problems.push(`overlap: ${name(a.el)} ${where(a.seen)} and ${name(b.el)} ${where(b.seen)}`);
    }
  }

  // a floating control outside the open panel lying on one of the panel's controls
  for (const a of controls) {
    for (const b of outside) {
      const x = cross(a.seen, b.seen);
      if (w(x) <= TINY || h(x) <= TINY) continue;
      const hit = document.elementFromPoint((x.left + x.right) / 2, (x.top + x.bottom) / 2);
      if (hit && b.el.contains(hit)) {
        problems.push(`overlap: ${name(b.el)} ${where(b.seen)} lies on ${name(a.el)} ${where(a.seen)}`);
      }
    }
  }

  // a floating control whose middle something else takes
  for (const c of controls) {
    const hit = c.layer ? hitOf(c) : undefined;
    if (hit && !reaches(c, hit)) problems.push(`covered: ${name(c.el)} ${where(c.seen)} is under ${name(hit)}`);
  }

  // a page control that no scrolling frees from the floating layer
  if (!scoped) {
    const blockers: { el: Element; b: Box }[] = [];
    const roots = new Set<Element>();
    for (const c of controls) if (c.layer) blockers.push({ el: c.el, b: c.seen });
    for (const c of controls) if (c.layer) roots.add(c.layer);
    for (const el of document.body.querySelectorAll('*')) {
      const p = style(el).position;
      if ((p === 'fixed' || p === 'sticky') && shown(el)) roots.add(el);
    }
    for (const root of roots) {
      const bg = style(root).backgroundColor;
      const opaque = bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg);
      if (opaque && root.getBoundingClientRect().height > 0)
        blockers.push({ el: root, b: box(root.getBoundingClientRect()) });
    }
    // A page whose content ends within the first screen is a one-screen page (the chat room): a person does not
    // scroll it, whatever room the shell's bottom padding leaves. A longer page scrolls to its end.
    // The top of a bar along the bottom edge (the phone's bottom bar), else the viewport's bottom.
    const usableEnd = Math.min(
      H,
      ...[...roots]
        .map((r) => r.getBoundingClientRect())
        .filter((r) => r.bottom >= H - 1 && r.width >= W / 2)
        .map((r) => r.top),
    );
    const main = document.querySelector('main');
    const contentEnd = main
      ? Math.max(0, ...[...main.children].map((el) => el.getBoundingClientRect().bottom))
      : doc.scrollHeight;
    const docRoom = contentEnd > usableEnd + 1 ? Math.max(0, doc.scrollHeight - H - window.scrollY) : 0;
    for (const c of controls) {
      if (c.layer) continue;
      const need = Math.min(h(c.all), 44);
      // Where the control's top (or the top of a 44 px slice of a tall control) can be brought by scrolling.
      let lo = c.all.top;
      let hi = c.all.top + h(c.all) - need;
      const inner = scrollerOf(c.el);
      if (inner) {
        const ib = box(inner.getBoundingClientRect());
        const down = inner.scrollHeight - inner.clientHeight - inner.scrollTop;
        lo = Math.max(lo - down, ib.top);
        hi = Math.min(hi + inner.scrollTop, ib.bottom - need);
        if (hi < lo) continue; // taller than its scroll box: nothing to say about floating layers
      }
      lo -= docRoom;
      const hits = blockers.filter(
        (k) =>
          !k.el.contains(c.el) &&
          Math.min(k.b.right, c.seen.right) - Math.max(k.b.left, c.seen.left) > TINY &&
          k.b.bottom > lo &&
          k.b.top < hi + need,
      );
      if (hits.length === 0) continue;
      const taken = hits.map((k) => [k.b.top, k.b.bottom] as const).sort((p, q) => p[0] - q[0]);
      let free = false;
      let from = 0;
      for (const [top, bottom] of [...taken, [H, H] as const]) {
        const gapLo = Math.max(from, lo);
        const gapHi = Math.min(top - need, hi);
        if (top - from >= need && gapHi >= gapLo) {
          free = true;
          break;
        }
        from = Math.max(from, bottom);
      }
      if (!free) {
        const names = [...new Set(hits.map((k) => name(k.el)))].slice(0, 3).join(', ');
        problems.push(`covered: ${name(c.el)} ${where(c.seen)} stays under ${names} at every scroll position`);
      }
    }
  }

  return [...new Set(problems)];
}
