import { getRouterParam, type H3Event } from 'h3';
import { parsePolicy, serializePolicy, wellFormedPolicy } from '../core/csp';
import { setupUrls, type Links } from '../core/setupUrls';
import { apiError } from '../http/apiError';
import { findSite, requireCallerSiteAccess, requireSiteAccess } from '../http/auth';
import { defineRoute, type Caller } from '../http/route';
import { CspProjectCreateSchema, CspProjectUpdateSchema, HeaderQuerySchema, ProjectListQuerySchema, SourceDecisionsSchema } from '../schemas/cspProject';
import { readCspSources } from '../reads/readCspSources';
import { readSuggestion } from '../reads/readSuggestion';
import type { Store } from '../store/contract';
import { CspHeaderSchema, CspProjectListSchema, CspProjectSchema, CspSourcesSchema, SuggestionSchema } from '../schemas/answers/cspProjectAnswers';

/** The name of the endpoint group in `report-to` and `Reporting-Endpoints`. */
const REPORTING_GROUP = 'sitebeacon';

/**
 * CSP projects (`/api/v1/csp-projects/…`, spec section 4): create, list, read, update, delete; the
 * policy the stored violations call for (`suggested-policy`); and the headers to deploy (`header`).
 */
export const cspProjectRoutes = ({ store, links }: { store: Store; links: Links }) => {
  /** The project, if this key (or signed-in user) may see it: 404 `unknown_project`, or 403 for another site's. */
  const projectFor = async (event: H3Event, caller: Caller) => {
    const id = Number(getRouterParam(event, 'id'));
    const project = Number.isSafeInteger(id) ? await store.cspProjects.get(id) : undefined;
    if (!project) throw apiError(404, 'unknown_project', `no CSP project has the id "${getRouterParam(event, 'id')}"`);
    requireCallerSiteAccess(caller, project.site_key);
    return project;
  };
  const tag = 'CSP projects';
  const project = { 200: { description: 'Project', schema: CspProjectSchema }, 404: 'unknown_project' };

  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/csp-projects',
      tag,
      summary: "CSP projects (of the key's site, or ?site_key=)",
      auth: 'apiKey',
      query: ProjectListQuerySchema,
      responses: { 200: { description: 'Projects', schema: CspProjectListSchema } },
      handle: async ({ apiKey, query }) => ({ data: await store.cspProjects.list(apiKey!.site_key ?? query.site_key) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/csp-projects',
      tag,
      summary: 'Create a CSP project',
      auth: 'apiKey',
      body: { schema: CspProjectCreateSchema },
      responses: { 201: { description: 'Created', schema: CspProjectSchema }, 404: 'unknown_site' },
      async handle({ event, apiKey, body }) {
        requireSiteAccess(apiKey!, body.site_key);
        await findSite(store, body.site_key);
        event.res.status = 201;
        return store.cspProjects.create(body);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/csp-projects/:id',
      tag,
      summary: 'A CSP project',
      auth: 'apiKey',
      responses: project,
      handle: ({ event, apiKey }) => projectFor(event, { apiKey: apiKey! }),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/csp-projects/:id',
      tag,
      summary: 'Change name, mode or base policy',
      auth: 'apiKey',
      body: { schema: CspProjectUpdateSchema },
      responses: project,
      handle: async ({ event, apiKey, body }) => store.cspProjects.update((await projectFor(event, { apiKey: apiKey! })).id, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/csp-projects/:id',
      tag,
      summary: 'Delete a CSP project',
      auth: 'apiKey',
      responses: { 204: 'Deleted', 404: 'unknown_project' },
      async handle({ event, apiKey }) {
        await store.cspProjects.delete((await projectFor(event, { apiKey: apiKey! })).id);
        event.res.status = 204;
        return null;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/csp-projects/:id/suggested-policy',
      tag,
      summary: "A policy allowing what the site's stored violations needed, with evidence counts (an API key or the dashboard's session)",
      auth: 'reader',
      responses: { 200: { description: 'Suggestion', schema: SuggestionSchema }, 403: 'forbidden: a project of another site than the key or user may see', 404: 'unknown_project' },
      // Beside the suggestion's `policy`, `directives` and `based_on_reports`: `withheld` (unsafe
      // sources left to the owner), `directives[].collapsed`, and `evidence` (groups read, the cap,
      // whether some were left out). The structure itself is not sent.
      async handle({ event, apiKey, user }) {
        const project = await projectFor(event, { apiKey, user });
        const { structure: _structure, ...suggestion } = await readSuggestion(store, project);
        return { project_id: project.id, base_policy: project.base_policy, ...suggestion };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/csp-projects/:id/sources',
      tag,
      summary: "Every source the suggestion would add, with its evidence (reports, pages, share of visitors, first seen, browsers), class and the owner's decision (an API key or the dashboard's session)",
      auth: 'reader',
      heavyRead: true,
      responses: { 200: { description: 'Sources', schema: CspSourcesSchema }, 403: 'forbidden: a project of another site than the key or user may see', 404: 'unknown_project' },
      handle: async ({ event, apiKey, user }) => readCspSources(store, await projectFor(event, { apiKey, user })),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/csp-projects/:id/sources',
      tag,
      summary: 'Accept or reject sources (null forgets a decision): the suggestion is the base plus accepted sources and undecided ones not likely injected',
      auth: 'apiKey',
      body: { schema: SourceDecisionsSchema },
      responses: { 200: { description: 'Sources', schema: CspSourcesSchema }, 404: 'unknown_project' },
      async handle({ event, apiKey, body }) {
        const project = await projectFor(event, { apiKey: apiKey! });
        await store.cspSources.decide(project.id, body.map((item) => ({ ...item, directive: item.directive.toLowerCase() })));
        return readCspSources(store, project);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/csp-projects/:id/header',
      tag,
      summary: "The header to deploy, reporting to this collector, and its Reporting-Endpoints header (an API key or the dashboard's session)",
      auth: 'reader',
      query: HeaderQuerySchema,
      responses: { 200: { description: 'Headers', schema: CspHeaderSchema }, 403: 'forbidden: a project of another site than the key or user may see', 404: 'unknown_project' },
      async handle({ event, apiKey, user, query }) {
        const project = await projectFor(event, { apiKey, user });
        const { site_key, base_policy, mode } = project;
        // The structure, never the serialized suggestion parsed again; the base read through the grammar.
        const directives = query.policy == 'suggested' ? (await readSuggestion(store, project)).structure : wellFormedPolicy(parsePolicy(base_policy));
        const endpoint = `${setupUrls(links).api_base}/csp-reports/${site_key}`;
        // Reports go to this collector: report-uri for browsers without the Reporting API, report-to
        // for the rest (Chromium then sends only to report-to).
        directives.delete('report-uri');
        directives.delete('report-to');
        directives.set('report-uri', [endpoint]).set('report-to', [REPORTING_GROUP]);
        return {
          name: mode == 'enforce' ? ('Content-Security-Policy' as const) : ('Content-Security-Policy-Report-Only' as const),
          value: serializePolicy(directives),
          reporting_endpoints: { name: 'Reporting-Endpoints' as const, value: `${REPORTING_GROUP}="${endpoint}"` },
        };
      },
    }),
  ];
};
