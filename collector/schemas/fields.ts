import * as v from 'valibot';
import { MAX_RELEASE_LENGTH } from '../../beacon/lib/wire';

/** A string cut to `max` characters: over-long values are bounded, not refused, so no report is lost to length. */
export const bounded = (max: number) => v.pipe(v.string(), v.transform((text) => text.slice(0, max)));
export const optionalBounded = (max: number) => v.optional(bounded(max));

/** No NUL or other control character (C0, DEL). */
export const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f]*$/;

/**
 * A name or version that ends up in a page, a header or a policy: one line, refused with 400 when
 * it holds a control character (docs/hostile-input.md, "Text and protocol edges"), cut to `max` otherwise.
 */
export const singleLine = (max: number) =>
  v.pipe(v.string(), v.regex(NO_CONTROL_CHARACTERS, 'control characters (NUL, CR, LF, tab...) are not allowed here'), v.transform((text) => text.slice(0, max)));
export const optionalSingleLine = (max: number) => v.optional(singleLine(max));
export const optionalInteger = (min: number, max: number) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)));
export const optionalFinite = () => v.optional(v.pipe(v.number(), v.finite()));

/**
 * `release` or `environment` (docs/issues.md): a string of at most MAX_RELEASE_LENGTH characters,
 * refused with 400 otherwise, not cut like other text: a release cut short would be another release.
 */
export const optionalReleaseName = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be a string`),
      v.maxLength(MAX_RELEASE_LENGTH, `${name} is at most ${MAX_RELEASE_LENGTH} characters`),
    ),
  );

/** A whole number as browsers send it: a JSON number, or its decimal digits as a string (`"status-code": "200"`). */
const wholeNumber = v.union(
  [v.number(), v.pipe(v.string(), v.regex(/^\s*\d{1,15}\s*$/), v.transform(Number))],
  'must be a whole number (or its digits as a string)',
);
/** As optionalInteger, also from a string of digits (docs/wire-format.md: numeric fields sent as strings are accepted). */
export const optionalCount = (min: number, max: number) => v.optional(v.pipe(wholeNumber, v.integer(), v.minValue(min), v.maxValue(max)));
/** As optionalFinite, also from a decimal string. */
export const optionalNumber = () =>
  v.optional(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.regex(/^\s*-?\d{1,15}(?:\.\d{1,15})?\s*$/), v.transform(Number))], 'must be a number'),
      v.finite(),
    ),
  );

/**
 * A copy of `input` without its `null` members: browsers send `null` for a field they have no
 * value for (Firefox ESR 153's `report-to` bodies: `"referrer": null`, `"sample": null`), so null
 * means absent (docs/wire-format.md, "CSP reports"). The copy has no prototype, as `input` may name `__proto__`.
 *
 * @example
 * withoutNulls({ referrer: null, blockedURL: 'eval' }); // { blockedURL: 'eval' }
 */
export const withoutNulls = (input: Record<string, unknown>): Record<string, unknown> => {
  const copy = Object.create(null) as Record<string, unknown>;
  // An assignment, not defineProperty (which cost much of this function's time): with no prototype there is
  // no `__proto__` setter to reach, so every name, `__proto__` included, becomes an own member.
  for (const name in input) {
    if (!Object.hasOwn(input, name)) continue;
    const value = input[name];
    if (value !== null) copy[name] = value;
  }
  return copy;
};

/** Fields beyond the known ones are kept, but a report may not smuggle in a large document. */
export const MAX_EXTRA_JSON = 4096;

/**
 * Own keys valibot's object and record schemas skip without a word (`_isValidObjectKey`, their
 * guard against prototype pollution) that a report may legitimately carry (docs/hostile-input.md, "Names from Object.prototype").
 * The third, `__proto__`, stays dropped: no JavaScript object literal or JSON.stringify of a
 * plain object produces it, so it is never a client's field, only an attempt at pollution.
 */
const RESERVED_KEYS = ['constructor', 'prototype'] as const;

/** A null-prototype copy: `__proto__` or `constructor` are plain keys of it, never its prototype. */
const dictionary = (entries: Iterable<readonly [string, unknown]>) => {
  const object = Object.create(null) as Record<string, unknown>;
  // No prototype, so no `__proto__` setter: an assignment makes every name an own member.
  for (const [name, value] of entries) object[name] = value;
  return object;
};

/**
 * The fields beyond the known ones as `extra` (a null-prototype object), or undefined when there are
 * none or their JSON is over MAX_EXTRA_JSON characters.
 *
 * @example
 * boundedExtra([['build', '1.2.0']]); // { build: '1.2.0' }
 */
export const boundedExtra = (entries: ReadonlyArray<readonly [string, unknown]>) => {
  const json = JSON.stringify(dictionary(entries));
  return json.length > 2 && json.length <= MAX_EXTRA_JSON ? dictionary(entries) : undefined;
};

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value == 'object' && !Array.isArray(value);

/**
 * Splits a loosely parsed object into its known fields and `extra` (the rest, kept when its JSON
 * is at most MAX_EXTRA_JSON characters). "Known" means an own key of `known`: `toString` or
 * `hasOwnProperty` in a report are extra fields, not Object.prototype's. `extra` has no prototype.
 */
export const splitExtra = <T>(input: Record<string, unknown>, known: Record<string, unknown>): T => {
  const record: Record<string, unknown> = {};
  const extra: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(input)) {
    if (Object.hasOwn(known, name)) record[name] = value;
    else extra.push([name, value]);
  }
  const kept = boundedExtra(extra);
  if (kept) record.extra = kept;
  return record as T;
};

/**
 * Puts the fields valibot skipped (`constructor` and `prototype` own keys of `raw`, the object as
 * it arrived) into `record.extra`, still bounded by MAX_EXTRA_JSON: no legitimate field
 * is lost, and none is ever read from or written to a prototype.
 *
 * @example
 * withReservedFields(parsed.output, JSON.parse('{"error_type":"x","error_message":"m","constructor":"MyError"}'));
 * // parsed.output.extra: { constructor: 'MyError' }
 */
export const withReservedFields = <T extends { extra?: Record<string, unknown> | undefined }>(record: T, raw: unknown): T => {
  if (!raw || typeof raw != 'object') return record;
  const reserved = RESERVED_KEYS.filter((name) => Object.hasOwn(raw, name));
  if (!reserved.length) return record;
  const extra = dictionary([
    ...Object.entries(record.extra ?? {}),
    ...reserved.map((name) => [name, Object.getOwnPropertyDescriptor(raw, name)!.value] as const),
  ]);
  if (JSON.stringify(extra).length <= MAX_EXTRA_JSON) record.extra = extra;
  return record;
};

/**
 * The first own key of `raw` that valibot's record schema would skip (`__proto__` included), to
 * refuse it with a clear 400 where the keys are names (metric names), not free fields.
 *
 * @example
 * reservedKeyOf(JSON.parse('{"constructor": {"value": 1}}')); // 'constructor'
 */
export const reservedKeyOf = (raw: unknown) =>
  raw && typeof raw == 'object' ? ['__proto__', ...RESERVED_KEYS].find((name) => Object.hasOwn(raw, name)) : undefined;

/**
 * A fast path's array of 1 to `max` items, each made by `one`, or undefined as soon as one item is
 * not in its shape (the valibot path then judges the whole body). errorReportFastPath.ts and
 * cspReportFastPath.ts.
 *
 * @example
 * everyOrNone([1, 2], 50, (n) => (n > 0 ? n : undefined)); // [1, 2]
 */
export const everyOrNone = <T>(items: unknown[], max: number, one: (item: unknown) => T | undefined): T[] | undefined => {
  if (items.length < 1 || items.length > max) return undefined;
  const made: T[] = [];
  for (const item of items) {
    const value = one(item);
    if (value === undefined) return undefined;
    made.push(value);
  }
  return made;
};
