import { isIP } from 'node:net';

/** The proxy a request goes through, and the variable that named it (the check says which). */
export interface Proxy {
  url: URL;
  /** The environment variable it came from, such as `HTTPS_PROXY`. */
  from: string;
}

const pick = (env: Record<string, string | undefined>, names: string[]) => {
  for (const name of names) if (env[name]) return { name, value: env[name]! };
  return undefined;
};

/** `NO_PROXY` as curl reads it: `*`, or host names (matching their subdomains too), with an optional port. */
const bypassed = (env: Record<string, string | undefined>, host: string, port: number) => {
  const list = pick(env, ['no_proxy', 'NO_PROXY'])?.value ?? '';
  return list
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry == '*') return true;
      const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry.toLowerCase());
      if (!match) return false;
      const [, name = '', entryPort] = match;
      if (entryPort && Number(entryPort) != port) return false;
      const bare = name.replace(/^\*?\./, '');
      if (isIP(bare) || isIP(host)) return host == bare;
      return host == bare || host.endsWith(`.${bare}`);
    });
};

/**
 * The proxy that `HTTPS_PROXY` / `HTTP_PROXY` (or their lower-case forms) name for this target,
 * unless `NO_PROXY` exempts the host; `undefined` for a direct connection. Integrations on the same
 * machine usually honour the same variables, so the check goes the way they go (spec section 7:
 * "outbound firewall, proxy or routing"). Returns a message for a proxy it cannot use.
 *
 * @example
 * proxyFor({ host: 'collector.example', port: 443, secure: true }, { HTTPS_PROXY: 'http://proxy:3128' });
 * // { url: URL('http://proxy:3128'), from: 'HTTPS_PROXY' }
 */
export const proxyFor = (
  target: { host: string; port: number; secure: boolean },
  env: Record<string, string | undefined>,
): Proxy | string | undefined => {
  const chosen = pick(env, target.secure ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']);
  if (!chosen || bypassed(env, target.host.toLowerCase(), target.port)) return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(chosen.value) ? chosen.value : `http://${chosen.value}`);
  } catch {
    return `${chosen.name} is not a URL`;
  }
  if (url.protocol != 'http:') return `${chosen.name} uses ${url.protocol}//; the check supports http:// proxies (CONNECT)`;
  return { url, from: chosen.name };
};

/** The proxy as the check prints it: without its credentials. */
export const proxyName = (proxy: Proxy) => `${proxy.url.protocol}//${proxy.url.host} (${proxy.from})`;
