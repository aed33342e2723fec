// The collector as a library (`sitebeacon/collector`), for embedding it in another Node server
// and for the benchmarks: the same app and store the CLI runs.
export { createCollector } from './app';
export type { CollectorOptions, RequestLogEntry } from './app';
export { openStore } from './store/openStore';
export { createSqliteStore } from './store/sqlite';
export { hashApiKey } from './core/keys';
export type { Store, Page, ListOptions } from './store/contract';
export { UnknownSiteError } from './store/unknownSiteError';
export type { Site, ErrorReport, NewErrorReport, StoredErrorReport, CspReport, NewCspReport, StoredCspReport, MetricValue, PerformanceSession, StoredPerformanceSession, ReceiveContext, ApiKey, WordPressInstall, SiteAction, CspProject, ServerAgent } from './core/records';
export { DEFAULT_SITE_KEY } from './core/records';
export { newCspReport, newErrorReport } from './core/newReports';
export { newApiKey, newSiteKey } from './core/keys';
export { signWebhook, verifyWebhook } from './core/alerts/signature';
export type { WebhookRejection } from './core/alerts/signature';
