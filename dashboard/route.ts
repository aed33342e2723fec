/**
 * The dashboard's page for a path (README, "The dashboard"; docs/dashboard.md).
 *
 * @example
 * route('/sites/3f2a/setup') // { page: 'setup', siteKey: '3f2a' }
 */
export const route = (path: string) => {
  const decode = (part: string) => decodeURIComponent(part);
  let match: RegExpExecArray | null;
  if (path == '/docs') return { page: 'docs' } as const;
  if ((match = /^\/sites\/([^/]+)\/errors\/([^/]+)$/.exec(path))) return { page: 'error', siteKey: decode(match[1]!), fingerprint: decode(match[2]!) } as const;
  if ((match = /^\/sites\/([^/]+)\/setup$/.exec(path))) return { page: 'setup', siteKey: decode(match[1]!) } as const;
  if ((match = /^\/sites\/([^/]+)\/alerts$/.exec(path))) return { page: 'alerts', siteKey: decode(match[1]!) } as const;
  if ((match = /^\/sites\/([^/]+)$/.exec(path))) return { page: 'site', siteKey: decode(match[1]!) } as const;
  return { page: 'overview' } as const;
};
