import { directiveFallbackList } from './directiveFallbackList';

/**
 * Directives of CSP3 (https://w3c.github.io/webappsec-csp/#csp-directives) and of the specifications
 * that extend it: `upgrade-insecure-requests` and `block-all-mixed-content` (Mixed Content),
 * `require-trusted-types-for` and `trusted-types` (Trusted Types), `webrtc` (CSP3 #directive-webrtc),
 * `fenced-frame-src` (Fenced Frames).
 */
const KNOWN: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'child-src', 'connect-src', 'default-src', 'fenced-frame-src', 'font-src', 'frame-src', 'img-src',
  'manifest-src', 'media-src', 'object-src', 'prefetch-src', 'script-src', 'script-src-elem',
  'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr', 'worker-src',
  'base-uri', 'sandbox', 'form-action', 'frame-ancestors', 'navigate-to', 'report-uri', 'report-to',
  'upgrade-insecure-requests', 'block-all-mixed-content', 'require-trusted-types-for', 'trusted-types', 'webrtc',
]);

/** Directives whose value is a serialized-source-list (§2.3.1): the fetch directives and these. */
const SOURCE_LIST_DOCUMENT_DIRECTIVES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'base-uri', 'form-action', 'frame-ancestors', 'navigate-to',
]);

/**
 * True for a directive name this module knows (lowercase, as `parsePolicy` leaves it).
 *
 * @example
 * isKnownDirective('img-src');     // true
 * isKnownDirective('constructor'); // false
 */
export const isKnownDirective = (name: string) => KNOWN.has(name);

/**
 * True when the directive's value is a source list (fetch directives, `base-uri`, `form-action`,
 * `frame-ancestors`, `navigate-to`), whose tokens must be source expressions.
 *
 * @example
 * takesSourceList('img-src');    // true
 * takesSourceList('report-uri'); // false
 */
export const takesSourceList = (name: string) => directiveFallbackList(name).length > 0 || SOURCE_LIST_DOCUMENT_DIRECTIVES.has(name);
