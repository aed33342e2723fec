import * as v from 'valibot';

/** A string cut to `max` characters: over-long values are bounded, not refused, so no report is lost to length. */
export const bounded = (max: number) => v.pipe(v.string(), v.transform((text) => text.slice(0, max)));
export const optionalBounded = (max: number) => v.optional(bounded(max));
export const optionalInteger = (min: number, max: number) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)));
export const optionalFinite = () => v.optional(v.pipe(v.number(), v.finite()));

/** Fields beyond the known ones are kept, but a report may not smuggle in a large document. */
export const MAX_EXTRA_JSON = 4096;

/**
 * Splits a loosely parsed object into its known fields and `extra` (the rest, kept when its JSON
 * is at most MAX_EXTRA_JSON characters). valibot's looseObject already drops "__proto__",
 * "prototype" and "constructor" keys, so the copies below cannot touch a prototype.
 */
export const splitExtra = <T>(input: Record<string, unknown>, known: Record<string, unknown>): T => {
  const record: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) (name in known ? record : extra)[name] = value;
  const json = JSON.stringify(extra);
  if (json.length > 2 && json.length <= MAX_EXTRA_JSON) record.extra = extra;
  return record as T;
};
