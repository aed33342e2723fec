import { setupUrls, type Links } from '../core/setupUrls';
import { defineRoute, type Route } from '../http/route';
import { openApiDocument } from '../openapi/openApiDocument';
import { OpenApiDocumentSchema } from '../schemas/answers/serviceAnswers';

/** `GET /api/openapi.json`: the OpenAPI 3.1 document of the whole route table, built at its first request. */
export const openApiRoutes = ({ links, routes }: { links: Links; routes: () => Route[] }) => {
  let document: string | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/openapi.json',
      tag: 'Reference',
      summary: 'This document',
      auth: 'none',
      responses: { 200: { description: 'OpenAPI 3.1', contentType: 'application/json', schema: OpenApiDocumentSchema } },
      handle: ({ event }) => {
        document ??= JSON.stringify(openApiDocument(routes(), setupUrls(links).app_url));
        event.res.headers.set('content-type', 'application/json; charset=utf-8');
        event.res.headers.set('access-control-allow-origin', '*');
        return document;
      },
    }),
  ];
};
