import { getValidatedQuery, type H3Event } from 'h3';
import type * as v from 'valibot';
import { describeIssues } from '../schemas/describeIssues';
import { apiError, type ErrorCode } from './apiError';

const refuse = (code: ErrorCode) => (result: { issues?: ReadonlyArray<unknown> }) =>
  apiError(400, code, describeIssues((result.issues ?? []) as ReadonlyArray<v.BaseIssue<unknown>>) || 'invalid');

/**
 * Validates a parsed body with the route's schema through the Standard Schema interface, as h3's
 * `readValidatedBody` does (h3 v2 does not export its validator; and the body itself is read by
 * readJsonBody.ts, with the byte cap and media types h3's reader has not): 400 with `code` naming
 * what is wrong.
 */
export const validateBody = async <T>(body: unknown, schema: v.GenericSchema<unknown, T>, code: ErrorCode): Promise<T> => {
  const result = await schema['~standard'].validate(body);
  if (result.issues) throw refuse(code)(result);
  return result.value as T;
};

/** The query string through h3's `getValidatedQuery` and the route's schema: 400 `bad_request`. */
export const validateQuery = <T>(event: H3Event, schema: v.GenericSchema<Record<string, unknown>, T>): Promise<T> =>
  getValidatedQuery(event, schema, { onError: refuse('bad_request') }) as Promise<T>;
