import type { HttpAnswer } from './httpExchange';
import { printable } from '../report/printable';

/**
 * An answer as the check prints it: status and the start of the body, on one safe line.
 *
 * @example
 * answerExcerpt({ status: 404, body: '{"error":{"code":"unknown_site"}}', headers: {}, headersDistinct: {}, truncated: false });
 * // '404 {"error":{"code":"unknown_site"}}'
 */
export const answerExcerpt = (answer: HttpAnswer, max = 300) => {
  const body = printable(answer.body, max);
  return `${answer.status}${body ? ` ${body}` : ' (empty body)'}`;
};
