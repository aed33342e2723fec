/**
 * Builds a Content-Security-Policy that allows what a site's stored violations needed, from a base
 * policy: for each violated directive, the source expression of each blocked URI is added to the
 * directive that actually governed it (CSP3 fallbacks: `script-src-elem` falls back to
 * `script-src`, then `default-src`; https://w3c.github.io/webappsec-csp/#directive-fallback-list).
 */

/** Directive -> the directives it falls back to, nearest first. */
const FALLBACKS: Record<string, string[]> = {
  'script-src-elem': ['script-src', 'default-src'],
  'script-src-attr': ['script-src', 'default-src'],
  'script-src': ['default-src'],
  'style-src-elem': ['style-src', 'default-src'],
  'style-src-attr': ['style-src', 'default-src'],
  'style-src': ['default-src'],
  'worker-src': ['child-src', 'script-src', 'default-src'],
  'frame-src': ['child-src', 'default-src'],
  'child-src': ['default-src'],
  'img-src': ['default-src'],
  'font-src': ['default-src'],
  'connect-src': ['default-src'],
  'media-src': ['default-src'],
  'object-src': ['default-src'],
  'manifest-src': ['default-src'],
  'default-src': [],
};

/** A policy as an ordered list of directives and their sources. */
export type Policy = Array<{ directive: string; sources: string[] }>;

export const parsePolicy = (policy: string): Policy =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/).filter(Boolean))
    .filter((tokens) => tokens.length > 0)
    .map(([directive, ...sources]) => ({ directive: directive!.toLowerCase(), sources }));

export const serializePolicy = (policy: Policy) =>
  policy.map(({ directive, sources }) => [directive, ...sources].join(' ')).join('; ');

/**
 * The source expression that allows `blockedUri` on a page at `documentUri`, or undefined when
 * no source expression can (a Trusted Types sink, an empty URI).
 */
export const sourceFor = (blockedUri: string, documentUri: string): string | undefined => {
  const keyword: Record<string, string> = {
    inline: "'unsafe-inline'",
    eval: "'unsafe-eval'",
    'wasm-eval': "'wasm-unsafe-eval'",
    data: 'data:',
    blob: 'blob:',
  };
  if (keyword[blockedUri]) return keyword[blockedUri];
  try {
    const url = new URL(blockedUri);
    if (url.protocol == 'data:' || url.protocol == 'blob:' || url.protocol == 'mediastream:' || url.protocol == 'filesystem:') return url.protocol;
    if (url.origin == 'null') return undefined;
    try {
      if (new URL(documentUri).origin == url.origin) return "'self'";
    } catch {
      // No document URI: name the origin.
    }
    return url.origin;
  } catch {
    return undefined;
  }
};

export interface Evidence {
  directive: string;
  blocked_uri: string;
  document_uri: string;
  reports: number;
}

export interface Suggestion {
  policy: string;
  /** What was added to the base, directive by directive, with how many reports needed each source. */
  directives: Array<{ directive: string; added: Array<{ source: string; reports: number }> }>;
  based_on_reports: number;
}

/**
 * @example
 * suggestPolicy("default-src 'self'", [{ directive: 'img-src', blocked_uri: 'https://cdn.example/a.png', document_uri: 'https://shop.example/', reports: 3 }])
 * // policy: "default-src 'self' https://cdn.example"
 */
export const suggestPolicy = (basePolicy: string, evidence: Evidence[]): Suggestion => {
  const policy = parsePolicy(basePolicy);
  const find = (directive: string) => policy.find((entry) => entry.directive == directive);
  const added = new Map<string, Map<string, number>>();
  let basedOn = 0;
  for (const { directive, blocked_uri, document_uri, reports } of evidence) {
    const chain = FALLBACKS[directive];
    // Not a fetch directive (frame-ancestors, trusted-types...): no source list to widen.
    if (!chain) continue;
    const source = sourceFor(blocked_uri, document_uri);
    if (!source) continue;
    let target = [directive, ...chain].map(find).find(Boolean);
    if (!target) {
      target = { directive, sources: [] };
      policy.push(target);
    }
    basedOn += reports;
    // * matches network origins, not data:, blob: or keywords.
    if (target.sources.includes('*') && /^(?:https?|wss?):\/\//.test(source)) continue;
    if (!target.sources.includes(source)) {
      // 'none' allows nothing and may not stand beside a source.
      target.sources = [...target.sources.filter((existing) => existing != "'none'"), source];
    }
    const sources = added.get(target.directive) ?? new Map<string, number>();
    sources.set(source, (sources.get(source) ?? 0) + reports);
    added.set(target.directive, sources);
  }
  return {
    policy: serializePolicy(policy),
    directives: [...added].map(([directive, sources]) => ({
      directive,
      added: [...sources].map(([source, reports]) => ({ source, reports })).sort((a, b) => b.reports - a.reports),
    })),
    based_on_reports: basedOn,
  };
};
