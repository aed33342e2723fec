import { HTTPError, type H3Event } from 'h3';
import { FastResponse } from 'srvx';

/** The error codes of the collector's answers (docs/responses.md). */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_json'
  | 'invalid_report'
  | 'invalid_request'
  | 'unauthorized'
  | 'origin_not_allowed'
  | 'forbidden'
  | 'csrf'
  | 'invalid_credentials'
  | 'unknown_site'
  | 'unknown_action'
  | 'unknown_project'
  | 'unknown_agent'
  | 'unknown_error_group'
  | 'unknown_issue'
  | 'unknown_alert'
  | 'too_many_rules'
  | 'invalid_source_map'
  | 'not_found'
  | 'method_not_allowed'
  | 'origin_not_in_site'
  | 'site_url_taken'
  | 'origin_ambiguous'
  | 'action_completed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'database_unavailable'
  | 'source_maps_unavailable'
  | 'internal';

/**
 * An HTTP error the collector answers as `{"error":{"code","message"}}`.
 *
 * @example
 * throw apiError(404, 'unknown_site', 'no site has the key "abc"');
 */
export const apiError = (status: number, code: ErrorCode, message: string, headers?: HeadersInit) =>
  new HTTPError({ status, message, data: { code }, headers });

const codeForStatus = (status: number): ErrorCode =>
  status == 404
    ? 'not_found'
    : status == 405
      ? 'method_not_allowed'
      : status == 413
        ? 'payload_too_large'
        : status == 415
          ? 'unsupported_media_type'
          : status >= 500
            ? 'internal'
            : 'bad_request';

/**
 * Turns any error into the JSON error body (docs/responses.md). Unhandled errors (bugs) are answered 500
 * without detail (h3 `src/error.ts` hides them too); `log` receives the detail. A 5xx made with
 * apiError and a code of its own (503 `database_unavailable`) is answered as made, and not logged.
 *
 * The answer is srvx's `FastResponse`, as h3's own answers are: its string body goes to the socket
 * as it is, where a `Response` builds a web stream to read it from (docs/performance.md, "The HTTP
 * thread": invalid bodies must cost no more than valid ones, and a flood of them is the cheap attack).
 */
export const toErrorResponse = (error: HTTPError, event: H3Event, log: (error: unknown) => void) => {
  const status = error.unhandled ? 500 : error.status;
  const data = error.data as { code?: ErrorCode } | undefined;
  // A 5xx the collector chose to answer (503 database_unavailable, http/mountRoutes.ts) says what it is.
  const internal = status >= 500 && (error.unhandled || !data?.code || data.code == 'internal');
  if (internal) log(error.cause ?? error);
  const code = internal ? 'internal' : data?.code || codeForStatus(status);
  const message = internal ? 'internal error' : error.message;
  const headers = new Headers(event.res.errHeaders);
  error.headers?.forEach((value, name) => headers.set(name, value));
  headers.set('content-type', 'application/json; charset=utf-8');
  return new FastResponse(JSON.stringify({ error: { code, message } }), { status, headers });
};
