/** The default port of each special scheme with one (URL Standard, "special scheme"). */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443' };

/** `scheme://authority` and the rest; only such URLs have a port, credentials and a fragment to drop. */
const HIERARCHICAL = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is;

/**
 * A URL from a report as CSP3 "strip URL for use in reports" (§5.4) leaves it and as one browser
 * writes it: no credentials, no fragment, and no explicit default port. WebKitGTK 2.50's
 * `report-to` sends `https://cdn.example.net:443/x.png` where its `report-uri`, Chromium and
 * Firefox send `https://cdn.example.net/x.png` (collector/fixtures/README.md): one violation must
 * look the same whichever way it came. Only those parts change: the rest stays byte for byte as
 * sent (no percent-encoding, no trailing `/` added), and keywords (`inline`, `eval`) and other
 * non-URLs are returned as they are.
 *
 * @example
 * reportUrl('https://cdn.example.net:443/x.png'); // 'https://cdn.example.net/x.png'
 * reportUrl('https://user:pw@shop.example/cart?step=2#top'); // 'https://shop.example/cart?step=2'
 * reportUrl('eval'); // 'eval'
 */
export const reportUrl = (text: string): string => {
  const match = HIERARCHICAL.exec(text);
  if (!match) return text;
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  // Credentials end at the authority's last '@' (URL Standard, authority state).
  let host = authority.replace(/^.*@/s, '');
  const port = DEFAULT_PORTS[scheme.toLowerCase()];
  if (port && host.endsWith(`:${port}`)) host = host.slice(0, -port.length - 1);
  const hash = rest.indexOf('#');
  return `${scheme}://${host}${hash < 0 ? rest : rest.slice(0, hash)}`;
};
