// The read API's types for its clients, the dashboard and `sitebeacon/playwright`: imported with
// `import type` only, so that none of this reaches a bundle (docs/dashboard.md). Everything here
// is inferred from the route table's declarations (http/route.ts `defineRoute`): a route's path,
// query and answer schemas are written once, there.
import type * as v from 'valibot';
import type { ApiErrorBodySchema } from '../http/apiErrorBody';
import type { SuccessOf } from '../http/route';
import type { AlertRuleInputSchema } from '../schemas/alertRule';
import type { AlertRuleSchema, AlertTestSchema, DeliveryListSchema } from '../schemas/answers/alertAnswers';
import type { CspProjectSchema, SuggestionSchema } from '../schemas/answers/cspProjectAnswers';
import type { IssueEventSchema, IssueFrameSchema, IssueListItemSchema, IssueSchema, IssueTagsSchema } from '../schemas/answers/issueAnswers';
import type {
  CspGroupSchema,
  DailyPointSchema,
  ErrorGroupDetailSchema,
  ErrorGroupSchema,
  ErrorGroupTrendSchema,
  MetricSummarySchema,
  PageVitalsSchema,
  SiteSchema,
  VitalSchema,
} from '../schemas/answers/readViews';
import type { SiteSetupSchema } from '../schemas/answers/siteSetupAnswer';
import type { StoredCspReportSchema, StoredErrorReportSchema, StoredPerformanceSessionSchema } from '../schemas/answers/storedRecords';
import type { OpenApiDocumentSchema, SessionUserSchema } from '../schemas/answers/serviceAnswers';
import type { ErrorCauseSchema } from '../schemas/errorReport';
import type { IssueChangeSchema } from '../schemas/issueQuery';
import type { alertRoutes } from './alerts';
import type { cspProjectRoutes } from './cspProjects';
import type { insightRoutes } from './insights';
import type { issueRoutes } from './issues';
import type { openApiRoutes } from './openapi';
import type { readApiRoutes } from './readApi';
import type { sessionRoutes } from './session';
import type { siteSetupRoutes } from './siteSetup';

/** The route families clients read. */
type ClientRoutes = ReturnType<
  typeof insightRoutes | typeof issueRoutes | typeof alertRoutes | typeof readApiRoutes | typeof siteSetupRoutes | typeof sessionRoutes | typeof cspProjectRoutes | typeof openApiRoutes
>[number];

/** What `defineRoute` recorded of each route (its phantom `~types`). */
type Declared<T> = T extends { readonly '~types'?: infer Types } ? NonNullable<Types> : never;
type Reads = Extract<Declared<ClientRoutes>, { method: 'GET' }>;

/**
 * Every GET a client reads, by path template (`/api/v1/sites/:site_key/daily`): its query's
 * parameters as sent, and its success answer as read.
 *
 * @example
 * type Daily = ReadApi['/api/v1/sites/:site_key/daily']['answer']; // { site_key, since, days }
 */
export type ReadApi = { [Read in Reads as Read['path']]: { query: Read['query']; answer: SuccessOf<Read['responses']> } };

/** A path template of the read API. */
export type ReadPath = keyof ReadApi;

/** Every refusal's body: `{"error":{"code","message"}}`. */
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>;
export type Site = v.InferOutput<typeof SiteSchema>;
export type DailyPoint = v.InferOutput<typeof DailyPointSchema>;
export type ErrorGroup = v.InferOutput<typeof ErrorGroupSchema>;
export type ErrorGroupTrend = v.InferOutput<typeof ErrorGroupTrendSchema>;
export type ErrorGroupDetail = v.InferOutput<typeof ErrorGroupDetailSchema>;
export type ErrorCause = v.InferOutput<typeof ErrorCauseSchema>;
export type CspGroup = v.InferOutput<typeof CspGroupSchema>;
export type MetricSummary = v.InferOutput<typeof MetricSummarySchema>;
export type Vital = v.InferOutput<typeof VitalSchema>;
export type PageVitals = v.InferOutput<typeof PageVitalsSchema>;
export type Setup = v.InferOutput<typeof SiteSetupSchema>;
export type SessionUser = v.InferOutput<typeof SessionUserSchema>;
export type CspProject = v.InferOutput<typeof CspProjectSchema>;
export type Suggestion = v.InferOutput<typeof SuggestionSchema>;
export type OpenApiDocument = v.InferOutput<typeof OpenApiDocumentSchema>;
export type StoredErrorReport = v.InferOutput<typeof StoredErrorReportSchema>;
export type StoredCspReport = v.InferOutput<typeof StoredCspReportSchema>;
export type StoredPerformanceSession = v.InferOutput<typeof StoredPerformanceSessionSchema>;
export type IssueListItem = v.InferOutput<typeof IssueListItemSchema>;
export type Issue = v.InferOutput<typeof IssueSchema>;
export type IssueEvent = v.InferOutput<typeof IssueEventSchema>;
/** One frame of an event's stack, as written and as its source map says (docs/source-maps.md, "Frames"). */
export type IssueFrame = v.InferOutput<typeof IssueFrameSchema>;
export type IssueTags = v.InferOutput<typeof IssueTagsSchema>;
/** The body of `PATCH .../issues/{fingerprint}` as sent (`ignore_until` an ISO time). */
export type IssueChange = v.InferInput<typeof IssueChangeSchema>;
/** An alert rule as read back (docs/alerts.md, "The API"): a webhook `signed`, never its secret. */
export type AlertRule = v.InferOutput<typeof AlertRuleSchema>;
/** The body of `POST .../alerts` as sent. */
export type AlertRuleInput = v.InferInput<typeof AlertRuleInputSchema>;
/** What `POST .../alerts/{id}/test` says of each channel. */
export type AlertTest = v.InferOutput<typeof AlertTestSchema>;
/** One row of `GET .../alerts/deliveries`. */
export type AlertDelivery = v.InferOutput<typeof DeliveryListSchema>['data'][number];
