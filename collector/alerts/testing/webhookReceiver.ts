import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../core/alerts/signature';

/** One request a webhook receiver took: its delivery key, whether its signature verified, its body. */
export interface ReceivedHook {
  delivery: string;
  verified: boolean;
  body: Record<string, any>;
}

/**
 * A webhook receiver on 127.0.0.1 as docs/alerts.md tells one to be written: it verifies the
 * signature under `secret`, and handles each `Sitebeacon-Delivery` once: `requests` is every
 * request, `handled` one per key (a repeat is answered 200 and counted, not handled again). `port`:
 * one to listen on (a receiver back up where it was), else any free one.
 *
 * @example
 * const hook = await startWebhookReceiver('s3cret');
 * // hook.url; hook.handled; hook.requests; await hook.close();
 */
export const startWebhookReceiver = async (secret: string, port = 0) => {
  const requests: ReceivedHook[] = [];
  const handled = new Map<string, ReceivedHook>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => request.headers[name] as string | undefined;
      const verified = verifyWebhook(secret, { timestamp: header('sitebeacon-timestamp'), signature: header('sitebeacon-signature'), body: text }).ok;
      const hook = { delivery: header('sitebeacon-delivery') ?? '', verified, body: JSON.parse(text) as Record<string, any> };
      requests.push(hook);
      if (!handled.has(hook.delivery)) handled.set(hook.delivery, hook);
      response.writeHead(verified ? 204 : 401).end();
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const listening = (server.address() as AddressInfo).port;
  return {
    port: listening,
    url: `http://127.0.0.1:${listening}/hooks/sitebeacon`,
    requests,
    handled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
