import { parseSourceExpression } from './parseSourceExpression';
import type { Policy } from './parsePolicy';

/** Keywords that switch protections off: a suggestion adds none the base lacked (docs/csp-reports.md, "The suggested policy"). */
const UNSAFE_KEYWORD = /^'(?:unsafe-[a-z-]+|wasm-unsafe-eval)'$/i;

/**
 * Whether adding `source` would allow more than one origin's resources: a bare scheme (`https:`,
 * `data:`), `*`, or an unsafe keyword. A suggestion adds such a source only where the base policy
 * had it in the directive's fallback chain; otherwise it is withheld for the owner.
 *
 * @example
 * broadSource('https:') // 'unsafe_scheme'
 * broadSource("'unsafe-inline'") // 'unsafe_keyword'
 * broadSource('https://cdn.example') // undefined
 */
export const broadSource = (source: string): 'unsafe_keyword' | 'unsafe_scheme' | undefined => {
  if (UNSAFE_KEYWORD.test(source)) return 'unsafe_keyword';
  if (source == '*') return 'unsafe_scheme';
  return parseSourceExpression(source)?.kind == 'scheme' ? 'unsafe_scheme' : undefined;
};

/** What to do instead of an unsafe keyword (docs/csp-reports.md, "The suggested policy"). */
export const GUIDANCE: Readonly<Record<string, string>> = {
  "'unsafe-inline'":
    "Give each inline script or style a nonce ('nonce-…', new on every response) or list its hash ('sha256-…'); with 'strict-dynamic', the scripts a nonced script loads run too. Move inline event handlers into scripts.",
  "'unsafe-eval'": "Replace eval(), new Function() and string arguments to setTimeout with code; a library that needs eval may have a CSP build.",
  "'wasm-unsafe-eval'": "WebAssembly needs 'wasm-unsafe-eval' (it allows no JavaScript eval); add it to script-src yourself if the page compiles WebAssembly.",
};

/** The element and attribute directives every browser also reads through their parent (CSP3 fallback lists). */
const PARENT: Readonly<Record<string, string>> = {
  'script-src-elem': 'script-src',
  'script-src-attr': 'script-src',
  'style-src-elem': 'style-src',
  'style-src-attr': 'style-src',
};

/**
 * The directive a source for a violation of `effectiveDirective` goes to: the directive violated,
 * never `default-src` or another fallback that governs other kinds of fetch too. A `-elem` or
 * `-attr` violation goes to `script-src` or `style-src` (which every browser knows) unless the base
 * has the `-elem`/`-attr` directive itself.
 *
 * @example
 * targetDirective(parsePolicy("default-src 'self'"), 'frame-src') // 'frame-src'
 * targetDirective(parsePolicy("default-src 'self'"), 'script-src-elem') // 'script-src'
 */
export const targetDirective = (base: Policy, effectiveDirective: string) =>
  base.has(effectiveDirective) ? effectiveDirective : (PARENT[effectiveDirective] ?? effectiveDirective);

/**
 * The top `cap` sources by reports, and the share of the reports they cover (1 when none were left out).
 *
 * @example
 * topSources(new Map([['https://a.example', 9], ['https://b.example', 1]]), 1) // { kept: [['https://a.example', 9]], coverage: 0.9, left: 1 }
 */
export const topSources = (sources: ReadonlyMap<string, number>, cap: number) => {
  const sorted = [...sources].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const kept = sorted.slice(0, Math.max(0, cap));
  const total = sorted.reduce((sum, [, reports]) => sum + reports, 0);
  const covered = kept.reduce((sum, [, reports]) => sum + reports, 0);
  return { kept, coverage: total ? covered / total : 1, left: sorted.length - kept.length };
};
