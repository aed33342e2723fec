/**
 * CSP3 "Get fetch directive fallback list" (https://w3c.github.io/webappsec-csp/#directive-fallback-list):
 * the directives that may govern a fetch of `name`'s kind, most relevant first, `name` itself
 * included. A Map, not an object: `name` comes from reports (`constructor`, `__proto__`...).
 */
const FALLBACKS: ReadonlyMap<string, readonly string[]> = /* @__PURE__ */ new Map([
  ['script-src-elem', ['script-src-elem', 'script-src', 'default-src']],
  ['script-src-attr', ['script-src-attr', 'script-src', 'default-src']],
  ['style-src-elem', ['style-src-elem', 'style-src', 'default-src']],
  ['style-src-attr', ['style-src-attr', 'style-src', 'default-src']],
  ['worker-src', ['worker-src', 'child-src', 'script-src', 'default-src']],
  ['connect-src', ['connect-src', 'default-src']],
  ['manifest-src', ['manifest-src', 'default-src']],
  ['prefetch-src', ['prefetch-src', 'default-src']],
  ['object-src', ['object-src', 'default-src']],
  ['frame-src', ['frame-src', 'child-src', 'default-src']],
  ['fenced-frame-src', ['fenced-frame-src', 'frame-src', 'child-src', 'default-src']],
  ['media-src', ['media-src', 'default-src']],
  ['font-src', ['font-src', 'default-src']],
  ['img-src', ['img-src', 'default-src']],
  // Not in that algorithm's switch, but reports name them as effective directives (eval is reported as
  // script-src, CSP2 browsers report style-src and child-src): each falls back to default-src.
  ['script-src', ['script-src', 'default-src']],
  ['style-src', ['style-src', 'default-src']],
  ['child-src', ['child-src', 'default-src']],
  ['default-src', ['default-src']],
]);

const NONE: readonly string[] = [];

/**
 * The fallback list of a fetch directive, itself first; empty for any other name.
 *
 * @example
 * directiveFallbackList('script-src-elem'); // ['script-src-elem', 'script-src', 'default-src']
 * directiveFallbackList('constructor');     // []
 */
export const directiveFallbackList = (name: string): readonly string[] => FALLBACKS.get(name) ?? NONE;
