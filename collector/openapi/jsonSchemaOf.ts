import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

type Json = Record<string, unknown>;

/**
 * A valibot schema as JSON Schema for the OpenAPI document, without the `$schema` line; the parts
 * JSON Schema cannot say (transforms, checks) are left out.
 *
 * @example
 * jsonSchemaOf(v.object({ name: v.string() })) // { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
 */
export const jsonSchemaOf = (schema: v.GenericSchema): Json => {
  const { $schema: _ignored, ...json } = toJsonSchema(schema, { errorMode: 'ignore' }) as Json;
  return json;
};
