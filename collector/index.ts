// The collector as a library (`sitebeacon/collector`), for embedding it in another Node server
// and for the benchmarks: the same app and store the CLI runs.
export { createCollector } from './app';
export type { CollectorOptions, RequestLogEntry } from './app';
export { openStore } from './store/openStore';
export { createSqliteStore } from './store/sqlite';
export { hashApiKey } from './core/keys';
export type { Store, Page, ListOptions } from './store/contract';
export type * from './core/records';
export { newCspReport, newErrorReport } from './core/newReports';
export { newSiteKey } from './core/keys';
