/** Where the check connects: the collector's API base and the host and port behind it. */
export interface Target {
  /** The API base, `https://host[:port]/…/api`, without a trailing slash (spec section 1, `{base_url}`). */
  apiBase: string;
  /** The host name or IP address, without IPv6 brackets. */
  host: string;
  port: number;
  /** https (the spec's transport) or plain http (only for a local collector). */
  secure: boolean;
}

/**
 * Reads the URL argument of `sitebeacon check`: the API base, which ends with the path segment
 * `/api` (spec section 1), or a host, whose API base is then `https://host/api`. A host without a
 * scheme means HTTPS, the only transport the spec names (section 8). Returns a message for anything
 * else, which the command reports as a usage error.
 *
 * @example
 * targetFromUrl('collector.example');               // { apiBase: 'https://collector.example/api', port: 443, … }
 * targetFromUrl('http://127.0.0.1:8787/api/');       // { apiBase: 'http://127.0.0.1:8787/api', secure: false, … }
 */
export const targetFromUrl = (input: string): Target | string => {
  const text = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return `${input} is not a URL or a host name`;
  }
  if (url.protocol != 'https:' && url.protocol != 'http:') return `${input}: the collector is reached over https (or http for a local one)`;
  if (url.username || url.password) return `${input}: the API base carries no credentials`;
  if (url.search || url.hash) return `${input}: the API base has no query or fragment`;
  const path = url.pathname.replace(/\/+$/, '');
  if (path != '' && !path.endsWith('/api')) {
    return `${input}: give the API base, whose path ends with /api (such as https://${url.host}/api), or just the host`;
  }
  const secure = url.protocol == 'https:';
  return {
    apiBase: `${url.origin}${path || '/api'}`,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    secure,
  };
};
