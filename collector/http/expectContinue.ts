import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Requests whose client waits for `100 Continue` before sending the body, and their responses. */
const waiting = new WeakMap<IncomingMessage, ServerResponse>();

/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1): Node answers `100 Continue` before the app sees the
 * request, inviting a body the app may refuse. Here the invitation waits until the body is read
 * (continueIfExpected), so a request refused first (401, 404, or 413 for a `Content-Length` over
 * the limit) never has its body sent (docs/hostile-input.md, "Floods"). Such a connection closes after the
 * answer: the client may still send the body it was not invited to, and nobody reads it.
 * Other `Expect` values are Node's: 417.
 *
 * @example
 * deferContinue(server.node.server, server.node.handler);
 */
export const deferContinue = (server: Server, handler: (request: IncomingMessage, response: ServerResponse) => void) => {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    waiting.set(request, response);
    response.shouldKeepAlive = false;
    handler(request, response);
  });
};

/**
 * Invites the body of a request whose client waits for it; nothing for any other. Called just
 * before the body is read (readJsonBody.ts), after every check that could refuse the request.
 *
 * @example
 * continueIfExpected(nodeRequest);
 */
export const continueIfExpected = (request: IncomingMessage) => {
  const response = waiting.get(request);
  if (!response) return;
  waiting.delete(request);
  if (!response.headersSent) response.writeContinue();
};
