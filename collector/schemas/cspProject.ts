import * as v from 'valibot';
import { parsePolicy, policyProblems } from '../core/csp';

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
