import { isDeepStrictEqual } from 'node:util';
import * as v from 'valibot';
import { expect } from 'vitest';

/**
 * Node's deep strict equality: prototypes (the null one of `extra`) and own keys, in any order.
 * Vitest's toStrictEqual compares `.constructor`, which is an own field of a null-prototype `extra`
 * that carries one ({"constructor": {...}}), so two equal copies would differ.
 */
export const expectSame = (actual: unknown, expected: unknown) =>
  expect(isDeepStrictEqual(actual, expected), `${JSON.stringify(actual)}\n!=\n${JSON.stringify(expected)}`).toBe(true);

type Schema = v.GenericSchema<unknown, unknown>;

/**
 * A schema's fast path against the valibot schema it stands in for, on one JSON body: the fast path
 * steps aside or gives exactly valibot's output, and the schema the endpoints use answers as
 * valibot alone does, issues included. True when the fast path answered. Each parse gets its own
 * copy of the body: a path may shape its input in place.
 *
 * @example
 * expectAsValibot(text, { fast: fastErrorReports, valibot: ErrorReportsValibotSchema, served: ErrorReportsSchema });
 */
export const expectAsValibot = (text: string, { fast, valibot, served }: { fast: (body: unknown) => unknown; valibot: Schema; served: Schema }) => {
  const reference = v.safeParse(valibot, JSON.parse(text));
  const shortcut = fast(JSON.parse(text));
  if (shortcut) {
    expect(reference.success).toBe(true);
    expectSame(shortcut, reference.output);
  }
  const answer = v.safeParse(served, JSON.parse(text));
  expect(answer.success).toBe(reference.success);
  if (answer.success) expectSame(answer.output, reference.output);
  else expect(answer.issues.map((issue) => issue.message)).toEqual(reference.issues!.map((issue) => issue.message));
  return !!shortcut;
};
