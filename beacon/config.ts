declare const __SITEBEACON_APP_URL__: string;

/** Where each kind of report is posted. */
export interface Endpoints {
  error: string;
  csp: string;
  performance: string;
}

/** The part of the options that decides where reports go (see `init`). */
export interface EndpointOptions {
  siteKey: string;
  /** Collection origin, e.g. `https://ingest.example`; the API base becomes `ORIGIN/api`. */
  ingestOrigin?: string;
  /** Explicit API base; ends with `/api`. */
  apiBase?: string;
  errorEndpoint?: string;
  cspEndpoint?: string;
  performanceEndpoint?: string;
}

/**
 * Resolves the three endpoints, first match wins (docs/beacon.md, "Endpoint resolution"): explicit
 * endpoint, `apiBase`, `ingestOrigin` + `/api`, then the build's main host
 * (`SITEBEACON_APP_URL` at build time; if unset, the page's own origin) + `/api`.
 * The host the script was loaded from never selects the collection host (spec, section 1).
 *
 * @example
 * resolveEndpoints({ siteKey: 'k', ingestOrigin: 'https://in.example' }).error
 * // 'https://in.example/api/error-reports/k'
 */
export const resolveEndpoints = (options: EndpointOptions, pageOrigin: string): Endpoints => {
  // An origin's trailing slashes become the one before `api`; an API base loses its trailing slashes.
  const apiBase = (options.apiBase || (options.ingestOrigin || __SITEBEACON_APP_URL__ || pageOrigin).replace(/\/*$/, '/api')).replace(/\/+$/, '');
  const endpoints = {} as Endpoints;
  // Each kind's path under the API base (docs/wire-format.md): error-reports, csp-reports, performance-sessions.
  for (const kind of ['error', 'csp', 'performance'] as const) {
    endpoints[kind] =
      options[`${kind}Endpoint`] || `${apiBase}/${kind}-${kind == 'performance' ? 'sessions' : 'reports'}/${encodeURIComponent(options.siteKey)}`;
  }
  return endpoints;
};
