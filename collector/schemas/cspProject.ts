import * as v from 'valibot';
import { directiveFallbackList, isSourceExpression, parsePolicy, policyProblems } from '../core/csp';

/** Text that ends up in a policy or a header: no NUL or other control character (docs/hostile-input.md, "Text and protocol edges"). */
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f]*$/;
const policy = v.pipe(
  v.string(),
  v.maxLength(8192),
  v.regex(NO_CONTROL_CHARACTERS, 'a policy is one line without control characters (NUL, CR, LF, tab...)'),
  v.check((text) => parsePolicy(text).size > 0, 'a policy needs at least one directive'),
  // Every directive name and source expression well formed (CSP3 §2.2.1, §2.3.1), or a 400 naming the first fault.
  v.check((text) => policyProblems(text).length == 0, (issue) => policyProblems(issue.input as string)[0]!),
);
const mode = v.picklist(['report-only', 'enforce']);
const name = v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.regex(NO_CONTROL_CHARACTERS, 'a name may not hold control characters'));

/** `POST /api/v1/csp-projects`. */
export const CspProjectCreateSchema = v.object({ site_key: v.string(), name, mode: v.optional(mode, 'report-only'), base_policy: policy });

/** `PATCH /api/v1/csp-projects/{id}`. */
export const CspProjectUpdateSchema = v.pipe(
  v.object({ name: v.optional(name), mode: v.optional(mode), base_policy: v.optional(policy) }),
  v.check((changes) => Object.keys(changes).length > 0, 'nothing to change: send name, mode or base_policy'),
);

/** `GET /api/v1/csp-projects/{id}/header`. */
export const HeaderQuerySchema = v.object({ policy: v.optional(v.picklist(['base', 'suggested'], 'policy is base or suggested'), 'base') });

/** `GET /api/v1/csp-projects`. */
export const ProjectListQuerySchema = v.object({ site_key: v.optional(v.string()) });

/** `PUT /api/v1/csp-projects/{id}/sources`: decisions on sources (docs/csp-reports.md, "Evidence per source"); null forgets one. */
export const SourceDecisionsSchema = v.pipe(
  v.array(
    v.object({
      directive: v.pipe(v.string(), v.maxLength(64), v.check((name) => directiveFallbackList(name.toLowerCase()).length > 0, 'directive is a fetch directive (img-src, script-src...)')),
      source: v.pipe(v.string(), v.maxLength(512), v.check((source) => isSourceExpression(source), 'source is one source expression')),
      decision: v.nullable(v.picklist(['accepted', 'rejected'], 'decision is accepted, rejected or null')),
    }),
  ),
  v.minLength(1, 'send at least one decision'),
  v.maxLength(200, 'at most 200 decisions at once'),
);
