import type { ReadApi, ReadPath } from './apiTypes';

/** A read API path that carries the type of its answer (a plain string at run time). */
export type ApiPath<Answer> = string & { readonly '~answer'?: Answer };

/** The `:name` parameters of a path template, as strings. */
type ParamsOf<Template extends string> = Template extends `${string}:${infer Name}/${infer Rest}`
  ? { [Key in Name]: string } & ParamsOf<Rest>
  : Template extends `${string}:${infer Name}`
    ? { [Key in Name]: string }
    : Record<never, never>;

/** The query parameters a read accepts (its route's query schema), each value written as text. */
type QueryOf<Template extends ReadPath> = { [Key in keyof NonNullable<ReadApi[Template]['query']>]?: string | number | boolean | undefined };

/**
 * The one way a client of the read API (the dashboard, `sitebeacon/playwright`) makes its paths: a route's template (as the collector's route
 * table declares it, apiTypes.ts), its parameters (encoded: a site key or a
 * fingerprint from stored data never becomes another path) and its query. The answer's type comes
 * with it, so `useApi(apiPath(...))` is typed by the route's declared schema.
 *
 * @example
 * apiPath('/api/v1/sites/:site_key/daily', { site_key: '3f2a' }, { since: '2026-06-03T12:00:00.000Z', p75: false })
 * // '/api/v1/sites/3f2a/daily?since=2026-06-03T12%3A00%3A00.000Z&p75=false'
 */
export const apiPath = <Template extends ReadPath>(
  template: Template,
  params: ParamsOf<Template>,
  query: QueryOf<Template> = {},
): ApiPath<ReadApi[Template]['answer']> => {
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent((params as Record<string, string>)[name]!));
  const search = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
  return search ? `${path}?${search}` : path;
};
