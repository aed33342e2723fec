import { earlyEvents } from './earlyEvents';
import { init } from './init';
import { scriptOptions } from './scriptOptions';

/**
 * The IIFE entry of `beacon.js`: reads its own script tag's data- attributes and starts.
 *
 * ```html
 * <script src="https://INGEST/beacon.js" data-site-key="SITE_KEY" data-ingest-origin="https://INGEST" async></script>
 * ```
 */
try {
  const script =
    (document.currentScript as HTMLScriptElement | null) ||
    document.querySelector<HTMLScriptElement>('script[data-site-key]');
  // `window.sitebeacon` is the running beacon's handle (captureError, flush, stop) for page code.
  const globals = window as unknown as { sitebeacon?: unknown };
  // Loaded twice (a CMS that repeats the snippet): the first copy keeps watching, the second does nothing.
  if (script?.dataset.siteKey && !globals.sitebeacon) {
    const options = scriptOptions(script);
    // Last: it hands what the snippet's early stub kept to the listeners the others added.
    options.capture!.push(earlyEvents());
    globals.sitebeacon = init(options);
  }
} catch {
  // Never break the page that pasted us.
}
