import * as v from 'valibot';
import type { Route } from './route';

/** A body h3 sends as it is rather than as JSON. */
const isRaw = (answer: unknown) =>
  typeof answer == 'string' || answer instanceof Uint8Array || answer instanceof ReadableStream || answer instanceof Response || answer instanceof ArrayBuffer;

/** An answer that is not what its route declares: a bug of the route, never of the caller. */
export class UndeclaredAnswerError extends Error {
  override name = 'UndeclaredAnswerError';
}

/**
 * Checks a handler's answer against what its route declares for the status it set (default 200):
 * a JSON body against that status's schema, a raw body against its declared Content-Type (and the
 * JSON text of one that also has a schema), no body against a body-less answer. Throws an
 * UndeclaredAnswerError naming the route, the status and what differs. The test collector checks
 * every answer so (testing/testCollector.ts): the route table's types hold at run time too.
 *
 * @example
 * checkAnswer(route, 200, { status: 'success' });
 */
export const checkAnswer = (route: Route, status: number, answer: unknown): void => {
  const doc = route.responses[status];
  const where = `${route.method} ${route.path} answered ${status}`;
  if (doc === undefined) throw new UndeclaredAnswerError(`${where}, a status it does not declare`);
  const { schema, contentType } = typeof doc == 'string' ? { schema: undefined, contentType: undefined } : doc;
  if (answer === null || answer === undefined) {
    if (schema && !contentType && route.method != 'HEAD') throw new UndeclaredAnswerError(`${where} without the body its schema declares`);
    return;
  }
  if (isRaw(answer)) {
    if (!contentType) throw new UndeclaredAnswerError(`${where} with a raw body where it declares ${schema ? 'a JSON body' : 'none'}`);
    if (schema && typeof answer == 'string') check(schema, JSON.parse(answer), where);
    return;
  }
  if (!schema || contentType) throw new UndeclaredAnswerError(`${where} with a JSON body where it declares ${contentType ?? 'none'}`);
  // As the client will read it: what JSON keeps of the answer (no undefined, no functions).
  check(schema, JSON.parse(JSON.stringify(answer)), where);
};

const check = (schema: v.GenericSchema, body: unknown, where: string) => {
  const result = v.safeParse(schema, body);
  if (result.success) return;
  const issues = result.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
  throw new UndeclaredAnswerError(`${where} with a body its schema refuses: ${issues.join('; ')}`);
};
