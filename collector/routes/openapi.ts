import type { H3 } from 'h3';
import { resolveLinks, type Links } from '../links';
import { openApiDocument } from '../openapi';

/** `GET /api/openapi.json`: the OpenAPI 3.1 document, built at its first request. */
export const openApiRoutes = (app: H3, { links }: { links: Links }) => {
  let document: string | undefined;
  app.get('/api/openapi.json', (event) => {
    document ??= JSON.stringify(openApiDocument(resolveLinks(links).appUrl));
    event.res.headers.set('content-type', 'application/json; charset=utf-8');
    event.res.headers.set('access-control-allow-origin', '*');
    return document;
  });
};
