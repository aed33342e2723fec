/** A site: the public key browsers report under, and the origins allowed to use it. */
export interface Site {
  siteKey: string;
  name: string;
  allowedOrigins: string[];
  createdAt: string;
}

/** The installation's default site: the spec's unkeyed endpoints store under it. */
export const DEFAULT_SITE_KEY = 'default';

/** An error report as validated by the collector (design, "Error report"). */
export interface NewErrorReport {
  error_type: string;
  error_message: string;
  error_name?: string | undefined;
  stack?: string | undefined;
  source_url?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  page_url?: string | undefined;
  timestamp?: number | undefined;
  session_id?: string | undefined;
  count?: number | undefined;
  /** Fields beyond the known ones, kept as sent (bounded). */
  extra?: Record<string, unknown> | undefined;
}

/** An error report as stored. */
export interface StoredErrorReport extends NewErrorReport {
  id: number;
  site_key: string;
  received_at: string;
  user_agent?: string | undefined;
}

/** What the collector knows of the request a report came in. */
export interface ReceiveContext {
  receivedAt: number;
  userAgent?: string | undefined;
}

export interface ListOptions {
  /** Only records received at or after this ISO time. */
  since?: string | undefined;
  /** Only records with a larger id (cursor). */
  afterId?: number | undefined;
  limit?: number | undefined;
}

/**
 * The storage contract. Every write resolves only once it is durable: the collector answers
 * 2xx after that, so an acknowledged report survives a crash.
 */
export interface Store {
  getSite(siteKey: string): Promise<Site | undefined>;
  getDefaultSite(): Promise<Site>;
  addSite(input: { name?: string; allowedOrigins: string[]; siteKey?: string }): Promise<Site>;
  /** Creates the site, or replaces its name and origins if the key exists. */
  putSite(input: { siteKey: string; name: string; allowedOrigins: string[] }): Promise<Site>;
  insertErrorReports(siteKey: string, reports: NewErrorReport[], context: ReceiveContext): Promise<number>;
  listErrorReports(siteKey: string, options?: ListOptions): Promise<StoredErrorReport[]>;
  close(): Promise<void>;
}
