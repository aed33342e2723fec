import type { Capture } from './init';
import { toErrorReport } from './lib/errorReport';

/** What a browser says instead of the message when a cross-origin script without CORS throws. */
const CROSS_ORIGIN_MESSAGE = /^Script error\.?$/;

/**
 * Captures uncaught errors (window `error`), resources that failed to load (the same event in the
 * capture phase: it does not bubble), and unhandled promise rejections.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors()] });
 */
export const errors = (): Capture => (context) => {
  let crossOriginReported: boolean | undefined;

  const onError = (event: ErrorEvent | Event) => {
    // A resource that failed to load fires a plain Event at its element; a script error is an ErrorEvent.
    if (!(event instanceof ErrorEvent)) {
      const element = event.target as Element & { src?: string; href?: string };
      const url = element?.src || element?.href;
      // The message as a thrown string: described as it is (lib/describeValue.ts).
      return url && context._report('error', toErrorReport('resource_error', element.localName + ' failed to load', { filename: url }));
    }
    const crossOrigin = !event.error && !event.filename && CROSS_ORIGIN_MESSAGE.test(event.message);
    // A cross-origin script's error carries no detail: one such report per page says all there is.
    if (crossOrigin && crossOriginReported) return;
    const report = toErrorReport('javascript_error', event.error, event);
    if (crossOrigin) crossOriginReported = report.cross_origin = true;
    context._report('error', report);
  };

  context._listen('error', onError, true);
  context._listen('unhandledrejection', (event: PromiseRejectionEvent) =>
    context._report('error', toErrorReport('unhandled_rejection', event.reason)),
  );
};
