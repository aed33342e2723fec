import { isKnownDirective } from './isKnownDirective';

/**
 * A directive as a report names it, without the source list CSP2-era browsers append after a space
 * (`img-src 'self'`). Only whitespace separates: `img-src;script-src` is no directive name.
 */
const bareName = (value: string | undefined) => (value ?? '').trim().split(/\s/, 1)[0]!.toLowerCase();

/**
 * The effective directive of a reported violation, bare and known (isKnownDirective), so that
 * grouping, summaries and the suggested policy can rely on it (docs/grouping.md, "CSP violations"):
 * - the `effective-directive` the report gives, without a source list;
 * - else, when it is absent (Firefox before 70 and Safari before 15.4 send only CSP2's
 *   `violated-directive`) or is not a directive name, the `violated-directive`'s name. CSP3 §5.3
 *   ("Report a violation") fills both from the violation's directive, so the violated one names
 *   the same directive, or, for a policy without it, the `default-src` that governed;
 * - else undefined: no directive can be read from the report.
 *
 * @example
 * effectiveDirectiveOf(undefined, "img-src 'self' https://cdn.example"); // 'img-src'
 * effectiveDirectiveOf('Script-Src-Elem', undefined);                   // 'script-src-elem'
 * effectiveDirectiveOf('inline', 'script-src');                         // 'script-src'
 * effectiveDirectiveOf('constructor', 'x');                             // undefined
 */
export const effectiveDirectiveOf = (effective: string | undefined, violated: string | undefined): string | undefined =>
  [bareName(effective), bareName(violated)].find(isKnownDirective);
