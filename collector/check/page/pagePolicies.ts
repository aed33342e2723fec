import { checkPagePolicies, type PageRequirement } from '../../core/csp';
import type { HttpAnswer } from '../exchange/httpExchange';
import { printable } from '../report/printable';
import type { HtmlFacts } from './readHtml';

/** One enforced policy of the page, and where it came from (the check says which to change). */
export interface PagePolicy {
  text: string;
  from: string;
}

/**
 * The page's enforced policies, in order: each policy of each `Content-Security-Policy` header
 * line (CSP3 §2.2.2 "parse a serialized CSP list": a header value is strictly split on commas), then
 * each `<meta http-equiv>` policy of `<head>` (one policy each). Report-Only headers block nothing.
 *
 * @example
 * pagePolicies(answer, readHtml(answer.body)); // [{ text: "default-src 'self'", from: 'header policy 1' }, …]
 */
export const pagePolicies = (answer: HttpAnswer, html: HtmlFacts): PagePolicy[] => {
  const policies: PagePolicy[] = [];
  for (const line of answer.headersDistinct['content-security-policy'] ?? []) {
    for (const text of line.split(',')) if (text.trim()) policies.push({ text, from: `header policy ${policies.length + 1}` });
  }
  html.metaPolicies.forEach((text, index) => policies.push({ text, from: `<meta> policy ${index + 1}` }));
  return policies;
};

/** What the page must change for one blocked fetch: the exact source, and in which directive of which policy. */
const advice = (requirement: PageRequirement, policies: PagePolicy[]) => {
  const where = requirement.blockedBy
    .map(({ policy, directive }) => `${directive} of the ${policies[policy]?.from ?? 'policy'}${directive != requirement.directive ? ` (it governs ${requirement.directive} there)` : ''}`)
    .join(' and ');
  const add = requirement.sourceToAdd ? `add ${requirement.sourceToAdd} to ${where}` : `change ${where}`;
  return `${requirement.directive} blocks ${printable(requirement.url, 200)}: ${add}${requirement.note ? ` (${requirement.note})` : ''}`;
};

/**
 * Judges the page's policies with the CSP module (`checkPagePolicies`: CSP3 matching with the
 * `default-src` fallback): the beacon must reach every collection endpoint (`connect-src`) and
 * load its script (`script-src-elem`). Returns the problems as sentences, empty when there are none.
 *
 * @example
 * cspProblems(policies, { pageUrl, endpoints: ['https://in.example/api/error-reports/k'], scriptUrl, scriptIntegrity: undefined });
 * // ['connect-src blocks https://in.example/api/error-reports/k: add https://in.example to default-src of the header policy 1 (…)']
 */
export const cspProblems = (
  policies: PagePolicy[],
  { pageUrl, endpoints, scriptUrl, scriptIntegrity }: { pageUrl: string; endpoints: string[]; scriptUrl: string; scriptIntegrity: string | undefined },
): string[] => {
  const texts = policies.map((policy) => policy.text);
  const problems: string[] = [];
  // The first endpoint a policy blocks is enough to say what to add; a path-restricted source
  // may allow one endpoint and not the next, hence each is tried.
  for (const endpoint of endpoints) {
    const [connect] = checkPagePolicies({ policies: texts, pageUrl, collectorOrigin: endpoint, scriptUrl, scriptIntegrity });
    if (connect && !connect.allowed) {
      problems.push(advice(connect, policies));
      break;
    }
  }
  const [, script] = checkPagePolicies({ policies: texts, pageUrl, collectorOrigin: endpoints[0]!, scriptUrl, scriptIntegrity });
  if (script && !script.allowed) problems.push(advice(script, policies));
  return problems;
};
