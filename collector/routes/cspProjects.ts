import { getRouterParam, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { parsePolicy, policyProblems, serializePolicy, suggestPolicy, SUGGESTION_LIMITS, wellFormedPolicy } from '../core/csp';
import { apiError } from '../http/apiError';
import { requireApiKey, requireSite, requireSiteAccess } from '../http/apiKeys';
import { methodNotAllowed } from '../http/methodNotAllowed';
import { readRequest } from '../http/readRequest';
import { resolveLinks, type Links } from '../links';
import type { Store } from '../store/store';

/** Text that ends up in a policy or a header: no NUL or other control character (issue 11, class 9). */
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
export const CspProjectCreateSchema = v.object({ site_key: v.string(), name, mode: v.optional(mode, 'report-only'), base_policy: policy });
export const CspProjectUpdateSchema = v.pipe(
  v.object({ name: v.optional(name), mode: v.optional(mode), base_policy: v.optional(policy) }),
  v.check((changes) => Object.keys(changes).length > 0, 'nothing to change: send name, mode or base_policy'),
);

/** The name of the endpoint group in `report-to` and `Reporting-Endpoints`. */
const REPORTING_GROUP = 'sitebeacon';

/**
 * CSP projects (`/api/v1/csp-projects/…`): create, list, read, update, delete; the policy the
 * stored violations call for (`suggested-policy`); and the headers to deploy (`header`).
 */
export const cspProjectRoutes = (app: H3, { store, links }: { store: Store; links: Links }) => {
  /** The project, if this key may see it: 404 `unknown_project`, or 403 for another site's key. */
  const projectFor = async (event: H3Event) => {
    const key = await requireApiKey(event, store);
    const id = Number(getRouterParam(event, 'id'));
    const project = Number.isSafeInteger(id) ? await store.getCspProject(id) : undefined;
    if (!project) throw apiError(404, 'unknown_project', `no CSP project has the id "${getRouterParam(event, 'id')}"`);
    requireSiteAccess(key, project.site_key);
    return project;
  };

  app.post('/api/v1/csp-projects', async (event) => {
    const body = await readRequest(event, CspProjectCreateSchema);
    await requireSite(event, store, body.site_key);
    event.res.status = 201;
    return store.createCspProject(body);
  });
  app.get('/api/v1/csp-projects', async (event) => {
    const key = await requireApiKey(event, store);
    const siteKey = key.siteKey ?? event.url.searchParams.get('site_key') ?? undefined;
    return { data: await store.listCspProjects(siteKey) };
  });
  app.get('/api/v1/csp-projects/:id', (event) => projectFor(event));
  app.patch('/api/v1/csp-projects/:id', async (event) => {
    const project = await projectFor(event);
    return store.updateCspProject(project.id, await readRequest(event, CspProjectUpdateSchema));
  });
  app.delete('/api/v1/csp-projects/:id', async (event) => {
    const project = await projectFor(event);
    await store.deleteCspProject(project.id);
    event.res.status = 204;
    return null;
  });

  /**
   * The suggestion from the top `SUGGESTION_LIMITS.evidenceGroups` evidence groups (issue 11, class 5):
   * one more is read only to tell whether some were left out.
   */
  const suggestionFor = async (project: { site_key: string; base_policy: string }) => {
    const limit = SUGGESTION_LIMITS.evidenceGroups;
    const evidence = await store.cspEvidence(project.site_key, { limit: limit + 1 });
    return { ...suggestPolicy(project.base_policy, evidence), evidence: { groups: Math.min(evidence.length, limit), limit, truncated: evidence.length > limit } };
  };

  // Beside the suggestion's `policy`, `directives` and `based_on_reports`: `withheld` (unsafe
  // sources left to the owner), `directives[].collapsed`, and `evidence` (groups read, the cap,
  // whether some were left out). The structure itself is not sent.
  app.get('/api/v1/csp-projects/:id/suggested-policy', async (event) => {
    const project = await projectFor(event);
    const { structure: _structure, ...suggestion } = await suggestionFor(project);
    return { project_id: project.id, base_policy: project.base_policy, ...suggestion };
  });

  app.get('/api/v1/csp-projects/:id/header', async (event) => {
    const project = await projectFor(event);
    const which = event.url.searchParams.get('policy') ?? 'base';
    if (which != 'base' && which != 'suggested') throw apiError(400, 'bad_request', 'policy is base or suggested');
    // The structure, never the serialized suggestion parsed again; the base read through the grammar.
    const directives = which == 'suggested' ? (await suggestionFor(project)).structure : wellFormedPolicy(parsePolicy(project.base_policy));
    const endpoint = `${resolveLinks(links).apiBase}/csp-reports/${project.site_key}`;
    // Reports go to this collector: report-uri for browsers without the Reporting API, report-to
    // for the rest (Chromium then sends only to report-to).
    directives.delete('report-uri');
    directives.delete('report-to');
    directives.set('report-uri', [endpoint]).set('report-to', [REPORTING_GROUP]);
    return {
      name: project.mode == 'enforce' ? 'Content-Security-Policy' : 'Content-Security-Policy-Report-Only',
      value: serializePolicy(directives),
      reporting_endpoints: { name: 'Reporting-Endpoints', value: `${REPORTING_GROUP}="${endpoint}"` },
    };
  });

  methodNotAllowed(app, '/api/v1/csp-projects', ['GET', 'POST']);
  methodNotAllowed(app, '/api/v1/csp-projects/:id', ['GET', 'PATCH', 'DELETE']);
  methodNotAllowed(app, '/api/v1/csp-projects/:id/suggested-policy', ['GET']);
  methodNotAllowed(app, '/api/v1/csp-projects/:id/header', ['GET']);
};
