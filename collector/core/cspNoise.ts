import type { CspReport } from './records';

/**
 * Browser extensions inject resources into every page they run on; their violations say nothing
 * about the site. `about:` documents are not the site either.
 */
const NOISE = /^(?:[a-z-]*-extension|webkit-masked-url|about):/i;

/** True for reports the collector answers 204 and does not store. */
export const isNoise = (report: CspReport) =>
  NOISE.test(report.blocked_uri || '') || NOISE.test(report.source_file || '') || NOISE.test(report.document_uri || '');
