import type { Capture } from './init';
import { cleanUrl } from './lib/cleanUrl';
import { monitor } from './lib/monitor';
import { toErrorReport } from './lib/errorReport';

/**
 * Captures uncaught errors (window `error`) and unhandled promise rejections.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors()] });
 */
export const errors = (): Capture => (context) => {
  const onError = monitor((event: ErrorEvent) => {
    const report = toErrorReport(event.error, 'javascript_error', event.message);
    if (event.filename) report.source_url = cleanUrl(event.filename);
    if (event.lineno) report.line = event.lineno;
    if (event.colno) report.column = event.colno;
    context.report('error', report);
  });
  const onRejection = monitor((event: PromiseRejectionEvent) => {
    context.report('error', toErrorReport(event.reason, 'unhandled_rejection'));
  });
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  return () => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onRejection);
  };
};
