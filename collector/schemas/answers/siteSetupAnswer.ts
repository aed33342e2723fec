import * as v from 'valibot';
import { CountSchema, IsoTimeSchema } from './isoTime';
import { SetupUrlsSchema } from './setupUrls';

const record = v.record(v.string(), v.unknown());

/**
 * `GET /api/v1/sites/{site_key}/setup`: what a site needs to be set up (core/setupUrls.ts
 * `siteSetup`, docs/early-capture.md), and its integrations. Never an agent's token hash.
 */
export const SiteSetupSchema = v.object({
  ...SetupUrlsSchema.entries,
  site_key: v.string(),
  name: v.string(),
  allowed_origins: v.array(v.string()),
  integrity: v.pipe(v.optional(v.string()), v.description("The beacon's SRI value as served now; absent when it is not built")),
  snippet: v.pipe(
    v.string(),
    v.description("The inline early-capture stub, which keeps the page's errors, rejections, failed resource loads and CSP violations until beacon.js has run, then the async script tag"),
  ),
  snippet_without_stub: v.pipe(v.string(), v.description('The async script tag alone: captures from when beacon.js has run')),
  csp_sources: v.pipe(
    v.object({ 'script-src': v.array(v.string()), 'connect-src': v.array(v.string()) }),
    v.description("script-src: the beacon's host and the stub's 'sha256-…' hash, which only the snippet with the stub needs; connect-src: the collection host"),
  ),
  wordpress: v.nullable(
    v.object({
      site_key: v.string(),
      site_url: v.string(),
      name: v.string(),
      plugin_version: v.optional(v.string()),
      wordpress_version: v.optional(v.string()),
      php_version: v.optional(v.string()),
      status: v.optional(record),
      registered_at: IsoTimeSchema,
      last_check_in_at: v.optional(IsoTimeSchema),
    }),
  ),
  agents: v.array(
    v.object({
      id: v.string(),
      hostname: v.string(),
      os: v.string(),
      arch: v.string(),
      agent_version: v.string(),
      site_key: v.optional(v.string()),
      status: v.optional(record),
      registered_at: IsoTimeSchema,
      last_heartbeat_at: v.optional(IsoTimeSchema),
    }),
  ),
  csp_projects: v.array(v.object({ id: v.pipe(v.number(), v.integer()), name: v.string(), mode: v.picklist(['report-only', 'enforce']), updated_at: IsoTimeSchema })),
  last_connectivity_check: v.pipe(
    v.nullable(v.object({ at: IsoTimeSchema, message: v.string(), reports: CountSchema })),
    v.description('The last connectivity check received in 30 days: `sitebeacon check --site` or the setup page check from a browser'),
  ),
});
