import { hash } from 'node:crypto';
import type { ErrorReport } from './records';

/** The first stack frame that names a location: "at fn (url:line:col)" (V8) or "fn@url:line:col" (Gecko, WebKit). */
const FRAME = /(?:at\s+(?:(\S+)\s+\()?|^([^@\n]*)@)(\S+?):\d+:\d+\)?$/m;

/**
 * Groups errors that are the same problem: kind, name, message with its numbers and ids masked,
 * and the first frame of the stack (function and file, no line: a new build moves lines).
 * 16 hex characters of SHA-256. With `original`, the place in the code as written of the stack's
 * first in-app frame (its source and line, from the release's source map), that place stands for
 * the frame, so that builds of the same source group together (docs/grouping.md, "Across releases").
 *
 * @example
 * fingerprintOf({ error_type: 'javascript_error', error_message: 'Item 42 not found' }) ==
 *   fingerprintOf({ error_type: 'javascript_error', error_message: 'Item 7 not found' })
 */
export const fingerprintOf = (
  report: Pick<ErrorReport, 'error_type' | 'error_name' | 'error_message' | 'stack' | 'source_url'>,
  original?: { source: string; line: number } | null,
) => {
  const message = report.error_message
    .replace(/\b[0-9a-f]{8,}\b|\b[0-9a-f-]{36}\b/gi, '<id>')
    .replace(/\d+/g, '<n>');
  const frame = original || !report.stack ? null : FRAME.exec(report.stack);
  const location = original
    ? `mapped ${original.source}:${original.line}`
    : frame ? `${frame[1] ?? frame[2] ?? ''} ${frame[3]!.split(/[?#]/)[0]}` : (report.source_url ?? '').split(/[?#]/)[0];
  // crypto.hash(): one call, cheaper than createHash().update().digest() on short input (docs/performance.md).
  return hash('sha256', [report.error_type, report.error_name ?? '', message, location].join('\n'), 'hex').slice(0, 16);
};
