import { governingDirective } from './governingDirective';
import { parsePolicy } from './parsePolicy';
import { parseSourceExpression } from './parseSourceExpression';
import { sourceForUrl } from './sourceForUrl';
import { urlMatchesSourceList } from './urlMatchesExpression';

export interface PageRequirement {
  /** The effective directive of the fetch: `connect-src` for the reports, `script-src-elem` for the beacon. */
  directive: 'connect-src' | 'script-src-elem';
  url: string;
  allowed: boolean;
  /** The source expression to add where it is blocked (`'self'` or an origin, or the script's hash). */
  sourceToAdd?: string;
  /** Each policy (index in `policies`) that blocks it, and its directive that does (the governing one). */
  blockedBy: Array<{ policy: number; directive: string }>;
  /** Why adding a source is not enough, when it is not. */
  note?: string;
}

const hashMatches = (list: readonly string[], integrity: string | undefined) => {
  const wanted = integrity?.match(/^(sha256|sha384|sha512)-(.+)$/i);
  if (!wanted) return false;
  return list.some((token) => {
    const parsed = parseSourceExpression(token);
    return parsed?.kind == 'hash' && parsed.algorithm == wanted[1]!.toLowerCase() && parsed.value == wanted[2];
  });
};

/**
 * Whether a page's enforced policies let the beacon work (docs/connectivity-check.md, the `page` step, exit 9;
 * spec section 1: the collector origin in `connect-src`, the script's host in `script-src`). Every
 * policy applies (CSP3 #framework-policy: a CSP list, and a fetch must pass each policy), so pass each header policy
 * (split a header value with `parsePolicyList`) and each `<meta http-equiv>` policy; leave
 * Report-Only policies out. The URLs are matched with CSP3 "Does url match source list" (#match-url-to-source-list) against the governing
 * directive of each policy (fallbacks: `connect-src` -> `default-src`; `script-src-elem` ->
 * `script-src` -> `default-src`), with the page as self-origin.
 *
 * With `'strict-dynamic'` a parser-inserted script is allowed only by a nonce or its integrity
 * hash (CSP3 https://w3c.github.io/webappsec-csp/#strict-dynamic-usage): pass `scriptIntegrity` (`sha384-...`, as in the script tag) to test
 * and suggest the hash. The URLs must be absolute (a TypeError otherwise: the caller validates them).
 *
 * @example
 * checkPagePolicies({
 *   policies: ["default-src 'self'; script-src 'self' https://in.example"],
 *   pageUrl: 'https://shop.example/', collectorOrigin: 'https://in.example', scriptUrl: 'https://in.example/beacon.js',
 * });
 * // [{ directive: 'connect-src', allowed: false, sourceToAdd: 'https://in.example', blockedBy: [{ policy: 0, directive: 'default-src' }], ... },
 * //  { directive: 'script-src-elem', allowed: true, blockedBy: [], ... }]
 */
export const checkPagePolicies = (input: {
  policies: readonly string[];
  pageUrl: string;
  collectorOrigin: string;
  scriptUrl: string;
  scriptIntegrity?: string;
}): PageRequirement[] => {
  const page = new URL(input.pageUrl);
  const policies = input.policies.map(parsePolicy);
  const requirements = [
    { directive: 'connect-src' as const, url: new URL(input.collectorOrigin) },
    { directive: 'script-src-elem' as const, url: new URL(input.scriptUrl) },
  ];
  return requirements.map(({ directive, url }) => {
    const blockedBy: PageRequirement['blockedBy'] = [];
    let strictDynamic = false;
    let none = false;
    policies.forEach((policy, index) => {
      const governing = governingDirective(policy, directive);
      if (governing === undefined) return;
      const list = policy.get(governing)!;
      const lower = list.map((token) => token.toLowerCase());
      const dynamic = directive == 'script-src-elem' && lower.includes("'strict-dynamic'");
      const allowed = directive == 'script-src-elem' && hashMatches(list, input.scriptIntegrity)
        ? true
        : !dynamic && urlMatchesSourceList(url, list, page);
      if (allowed) return;
      strictDynamic ||= dynamic;
      none ||= lower.length == 0 || (lower.length == 1 && lower[0] == "'none'");
      blockedBy.push({ policy: index, directive: governing });
    });
    const requirement: PageRequirement = { directive, url: url.href, allowed: blockedBy.length == 0, blockedBy };
    if (requirement.allowed) return requirement;
    if (strictDynamic) {
      if (input.scriptIntegrity) requirement.sourceToAdd = `'${input.scriptIntegrity}'`;
      requirement.note = "'strict-dynamic' ignores host sources: allow the script tag by its integrity hash or a nonce";
    } else {
      const source = sourceForUrl(url, page);
      if (source !== undefined) requirement.sourceToAdd = source;
      else requirement.note = 'no source expression can name this URL';
    }
    if (none) requirement.note = `${requirement.note ? `${requirement.note}; ` : ''}replace 'none' rather than add beside it`;
    return requirement;
  });
};
