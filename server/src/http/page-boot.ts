import { createHash } from 'node:crypto';

/**
 * The boot script of a page the server painted (docs/decisions.md "Issue 28: the wall painted by the server"): an
 * inline classic script at the end of `<body>`, which asks for the app's module scripts (named in its `data-app` and
 * `data-preload` attributes) only once the painted wall's first picture is on screen, so on a phone that paint waits
 * for no script (docs/performance.md, "Wall load"). The app starts:
 *
 * - when the browser reports the picture as the page's largest paint, or after the frame that follows its decode,
 *   whichever is first; at the latest BOOT_FALLBACK_MS after the script ran, or when the picture fails;
 * - at once, on a page without a painted picture, on any path but the wall's top (`/` without `img` or `index`: the
 *   service worker may serve its copy of `/` for another path), and for a browser whose stored state the painted
 *   visitor's page does not show (signed in, or the bottom bar dragged taller): there the painted page is taken away
 *   first, and the page starts as an unpainted one does.
 *
 * On a touch screen it gives the card the class the client's first render gives it, so nothing changes when the app
 * takes over. Its text is fixed (the CSP allows it by its hash, http/csp.ts); what varies is in its attributes.
 */
export const BOOT_FALLBACK_MS = 3000;

export const BOOT_SCRIPT = `(function () {
  var boot = document.currentScript, root = document.getElementById('root'), started = false;
  function start() {
    if (started) return;
    started = true;
    (boot.getAttribute('data-preload') || '').split(' ').forEach(function (href) {
      if (!href) return;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = boot.getAttribute('data-app');
    document.head.appendChild(script);
  }
  var plain = location.pathname !== '/' || /[?&](img|index)=/.test(location.search);
  try {
    var bar = Number(localStorage.getItem('bottomBarHeight')) || 87;
    plain = plain || localStorage.getItem('isLoggedIn') === 'true' || bar !== 87;
  } catch (e) {}
  var img = root.querySelector('img[fetchpriority="high"]');
  if (plain) root.textContent = '';
  if (plain || !img) return start();
  var card = root.querySelector('.picture-card');
  if (card && window.matchMedia && matchMedia('(hover: none)').matches) card.classList.add('picture-card--touch');
  setTimeout(start, ${BOOT_FALLBACK_MS});
  img.addEventListener('error', start);
  var shown = function () {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        setTimeout(start, 0);
      });
    });
  };
  var decoded = function () {
    if (img.decode) img.decode().then(shown, start);
    else shown();
  };
  if (img.complete && img.naturalWidth) decoded();
  else img.addEventListener('load', decoded);
  if (window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).indexOf('largest-contentful-paint') >= 0) {
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntries().some(function (e) { return e.element === img; })) return;
      observer.disconnect();
      start();
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  }
})();`;

/** The script's hash for the Content-Security-Policy's `script-src`. */
export const BOOT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;
