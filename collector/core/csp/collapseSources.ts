import { parseSourceExpression } from './parseSourceExpression';

const IPV4 = /^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$/;

const addTo = (sources: Map<string, number>, source: string, reports: number) =>
  sources.set(source, (sources.get(source) ?? 0) + reports);

/**
 * Keeps a directive's added sources under `cap` (docs/hostile-input.md, "Policies widened by reports": collapse to a
 * wildcard host, then to `https:`, beyond it). First, host sources with the same scheme, port and parent domain
 * (at least two labels, so never `*.com`) become one wildcard host when there are two or more of
 * them (`https://a.cdn.example` + `https://b.cdn.example` -> `https://*.cdn.example`); then, if
 * still over the cap, every host source becomes its scheme-source (`https:`). Keywords and
 * scheme sources stay. Report counts add up; `collapsed` counts the sources folded away.
 * Linear in the number of sources.
 *
 * @example
 * collapseSources(new Map([['https://a.cdn.example', 2], ['https://b.cdn.example', 1], ["'self'", 4]]), 2);
 * // { sources: Map { 'https://*.cdn.example' => 3, "'self'" => 4 }, collapsed: 2 }
 */
export const collapseSources = (added: ReadonlyMap<string, number>, cap: number): { sources: Map<string, number>; collapsed: number } => {
  if (added.size <= cap) return { sources: new Map(added), collapsed: 0 };
  const wildcards = new Map<string, string[]>();
  for (const source of added.keys()) {
    const parsed = parseSourceExpression(source);
    if (parsed?.kind != 'host' || parsed.host.startsWith('*') || IPV4.test(parsed.host)) continue;
    const labels = parsed.host.split('.');
    if (labels.length < 3) continue;
    const wildcard = `${parsed.scheme ? `${parsed.scheme}://` : ''}*.${labels.slice(1).join('.')}${parsed.port ? `:${parsed.port}` : ''}`;
    const members = wildcards.get(wildcard);
    if (members) members.push(source);
    else wildcards.set(wildcard, [source]);
  }
  const folded = new Map<string, string>();
  for (const [wildcard, members] of wildcards) if (members.length > 1) for (const member of members) folded.set(member, wildcard);
  const byParent = new Map<string, number>();
  for (const [source, reports] of added) addTo(byParent, folded.get(source) ?? source, reports);
  if (byParent.size <= cap) return { sources: byParent, collapsed: folded.size };

  const byScheme = new Map<string, number>();
  let collapsed = 0;
  for (const [source, reports] of added) {
    const parsed = parseSourceExpression(source);
    if (parsed?.kind == 'host' && parsed.scheme) {
      addTo(byScheme, `${parsed.scheme}:`, reports);
      collapsed++;
    } else {
      addTo(byScheme, source, reports);
    }
  }
  return { sources: byScheme, collapsed };
};
