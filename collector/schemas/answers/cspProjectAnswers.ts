import * as v from 'valibot';
import { CountSchema, IsoTimeSchema } from './isoTime';

/** A CSP project (core/records.ts `CspProject`). */
export const CspProjectSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  site_key: v.string(),
  name: v.string(),
  mode: v.picklist(['report-only', 'enforce']),
  base_policy: v.string(),
  created_at: IsoTimeSchema,
  updated_at: IsoTimeSchema,
});

/** `GET /api/v1/csp-projects`. */
export const CspProjectListSchema = v.object({ data: v.array(CspProjectSchema) });

/**
 * `GET /api/v1/csp-projects/{id}/suggested-policy` (core/csp/suggestPolicy.ts): the policy, what
 * it adds per directive, `withheld` (unsafe sources left to the owner) and `evidence` (groups read,
 * the cap, whether some were left out).
 */
export const SuggestionSchema = v.object({
  project_id: v.pipe(v.number(), v.integer()),
  base_policy: v.string(),
  policy: v.string(),
  directives: v.array(
    v.object({ directive: v.string(), added: v.array(v.object({ source: v.string(), reports: CountSchema })), collapsed: v.optional(CountSchema) }),
  ),
  based_on_reports: CountSchema,
  withheld: v.array(
    v.object({
      directive: v.string(),
      source: v.string(),
      reports: CountSchema,
      reason: v.pipe(
        v.picklist(['unsafe_keyword', 'unsafe_scheme', 'rejected', 'likely_injected']),
        v.description('too broad (unsafe_keyword, unsafe_scheme: never added unless the base had it), rejected by the owner, or undecided and likely injected'),
      ),
      guidance: v.optional(v.pipe(v.string(), v.description("What to do instead of the unsafe keyword: nonces, hashes, 'strict-dynamic'"))),
    }),
  ),
  too_many: v.pipe(
    v.nullable(v.object({ directive: v.string(), kept: CountSchema, coverage: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) })),
    v.description('When a directive needed more sources than the cap: the top ones kept, and the share of its reports they cover'),
  ),
  evidence: v.object({ groups: CountSchema, limit: CountSchema, truncated: v.boolean() }),
});

/** `GET /api/v1/csp-projects/{id}/header`: the header to deploy and its Reporting-Endpoints header. */
export const CspHeaderSchema = v.object({
  name: v.picklist(['Content-Security-Policy', 'Content-Security-Policy-Report-Only']),
  value: v.string(),
  reporting_endpoints: v.object({ name: v.literal('Reporting-Endpoints'), value: v.string() }),
});

/** `GET` and `PUT /api/v1/csp-projects/{id}/sources` (docs/csp-reports.md, "Evidence per source"). */
export const CspSourcesSchema = v.object({
  project_id: v.pipe(v.number(), v.integer()),
  data: v.array(
    v.object({
      directive: v.string(),
      source: v.string(),
      reports: CountSchema,
      pages: CountSchema,
      visitors_share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      first_seen: v.nullable(IsoTimeSchema),
      browsers: v.array(v.string()),
      class: v.pipe(v.picklist(['own', 'third_party', 'likely_injected']), v.description("own: the site's origin or domain; likely_injected: a small share of visitors")),
      decision: v.nullable(v.picklist(['accepted', 'rejected'])),
    }),
  ),
});
