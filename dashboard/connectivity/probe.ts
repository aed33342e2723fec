import { formatNumber } from '../format';

/**
 * What one request of the browser-side connectivity check met (spec section 7, as far as a browser
 * can tell): an answer (status, media type, the start of its body), or no answer and why.
 *
 * A page's script learns much less than `sitebeacon check` does: a DNS failure, a refused or reset
 * connection, a refused certificate, a proxy refusing the tunnel, an extension blocking the URL and
 * a CORS refusal all reject `fetch` with the same TypeError (Fetch standard, "network error"), on
 * purpose. Only a timeout (ours), this page's own CSP (its `securitypolicyviolation` event) and an
 * offline browser can be told apart.
 */
export type ProbeOutcome =
  | { kind: 'answer'; ms: number; status: number; mediaType: string; text: string }
  | { kind: 'offline' | 'network' | 'timeout' | 'csp'; ms: number; detail: string };

/** What a probe needs besides the request: a fetch, a time limit, and how to learn of this page's CSP blocking it. */
export interface ProbeOptions {
  /** Whole request, answer read included (spec section 8 recommends 20 s in total). */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Resolves true when this page's CSP blocked `url` (dashboard/connectivity/cspBlocks.ts); absent outside a page. */
  blockedByPolicy?: (url: string) => Promise<boolean>;
  /** False when the browser knows it is offline (`navigator.onLine`). */
  online?: () => boolean;
}

/** The most of an answer's body kept: enough to tell JSON from a proxy's page and show its title. */
const MAX_TEXT = 4096;

/**
 * Sends `init` to `url` as a page's script does (CORS, no cookies, not cached) and reports what it
 * met within `timeoutMs`.
 *
 * @example
 * const outcome = await probe('https://in.example/api/test-connectivity', {}, { timeoutMs: 20_000 });
 * if (outcome.kind == 'answer' && outcome.status == 200) …
 */
export const probe = async (url: string, init: RequestInit, options: ProbeOptions): Promise<ProbeOutcome> => {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  if (options.online && !options.online()) return { kind: 'offline', ms: 0, detail: 'the browser says it is offline' };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(url, { ...init, mode: 'cors', credentials: 'omit', cache: 'no-store', redirect: 'follow', signal: controller.signal });
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const text = (await response.text()).slice(0, MAX_TEXT);
    return { kind: 'answer', ms: ms(), status: response.status, mediaType, text };
  } catch (error) {
    if (timedOut) {
      const limit = options.timeoutMs >= 1000 ? `${formatNumber(options.timeoutMs / 1000)} s` : `${formatNumber(options.timeoutMs)} ms`;
      return { kind: 'timeout', ms: ms(), detail: `no answer within ${limit}` };
    }
    if (await options.blockedByPolicy?.(url)) return { kind: 'csp', ms: ms(), detail: "refused by this page's Content-Security-Policy (connect-src)" };
    return { kind: 'network', ms: ms(), detail: String((error as Error)?.message ?? error).slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
};
