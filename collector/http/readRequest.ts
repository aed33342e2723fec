import type { H3Event } from 'h3';
import * as v from 'valibot';
import { describeIssues } from '../schemas/describeIssues';
import { apiError } from './apiError';
import { readJsonBody } from './readJsonBody';

/**
 * Reads an `/api/v1` JSON request body and validates it: 415, 413, 400 `invalid_json` as for
 * reports, and 400 `invalid_request` naming what is wrong.
 *
 * @example
 * const body = await readRequest(event, RegisterSchema);
 */
export const readRequest = async <S extends v.GenericSchema>(event: H3Event, schema: S): Promise<v.InferOutput<S>> => {
  const parsed = v.safeParse(schema, await readJsonBody(event, { mediaTypes: ['application/json'] }));
  if (!parsed.success) throw apiError(400, 'invalid_request', describeIssues(parsed.issues));
  return parsed.output;
};
