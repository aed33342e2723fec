import { ApiErrorBodySchema } from '../http/apiErrorBody';
import { jsonSchemaOf } from './jsonSchemaOf';

/** The shared pieces of the OpenAPI document: security schemes and the schemas routes refer to. */
export const OPENAPI_COMPONENTS = {
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', description: 'An API key from `sitebeacon key create`' },
    apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    session: { type: 'apiKey', in: 'cookie', name: 'sitebeacon_session', description: 'The dashboard session of POST /api/v1/session' },
    agentToken: { type: 'http', scheme: 'bearer', description: 'The agent token `register` answered (sba_...)' },
  },
  schemas: {
    /** Every refusal's body, declared once. */
    Error: /* @__PURE__ */ jsonSchemaOf(ApiErrorBodySchema),
    ReportingApiReport: {
      type: 'object',
      required: ['type', 'body'],
      properties: { type: { type: 'string' }, age: { type: 'number' }, url: { type: 'string' }, user_agent: { type: 'string' }, body: { type: 'object' } },
    },
  },
};
