import { init } from './init';
import { errors } from './errors';

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
  const data = script?.dataset;
  // `window.sitebeacon` is the running beacon's handle (captureError, flush, stop) for page code.
  const globals = window as unknown as { sitebeacon?: unknown };
  // Loaded twice (a CMS that repeats the snippet): the first copy keeps watching, the second does nothing.
  if (data?.siteKey && !globals.sitebeacon) {
    globals.sitebeacon = init({
      siteKey: data.siteKey,
      ingestOrigin: data.ingestOrigin,
      apiBase: data.apiBase,
      errorEndpoint: data.errorEndpoint,
      cspEndpoint: data.cspEndpoint,
      performanceEndpoint: data.performanceEndpoint,
      capture: [errors()],
    });
  }
} catch {
  // Never break the page that pasted us.
}
