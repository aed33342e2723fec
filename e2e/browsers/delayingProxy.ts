import { createServer, request } from 'node:https';
import type { World } from './harness';

/**
 * A slow front for the collector: an HTTPS server on another `localhost` port (127.0.0.1, as the collector) that forwards every
 * request to the collector as it is (method, headers, body, the answer), but answers `/beacon.js`
 * only after `delay` ms, and never to be cached. A site set up with `--public-url` this origin gets the generated snippet
 * unchanged, and its page runs its first scripts, as a real page often does, before the async
 * beacon has arrived (docs/early-capture.md).
 *
 * @example
 * const proxy = await startDelayingProxy(world, 1_000);
 * const setup = await world.setup(siteKey, proxy.origin); // beacon_url: `${proxy.origin}/beacon.js`
 * await proxy.close();
 */
export const startDelayingProxy = async (world: World, delay: number) => {
  const target = new URL(world.collectorOrigin);
  const server = createServer(world.tls, (incoming, answer) => {
    const held = new URL(incoming.url!, 'https://x').pathname == '/beacon.js';
    const forward = () => {
      const outgoing = request(
        { host: '127.0.0.1', servername: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host }, ca: world.tls.cert },
        (response) => {
          // Held back every time: a copy from the browser's cache would arrive at once.
          answer.writeHead(response.statusCode ?? 502, held ? { ...response.headers, 'cache-control': 'no-store' } : response.headers);
          response.pipe(answer);
        },
      );
      outgoing.on('error', () => answer.headersSent || answer.writeHead(502).end());
      incoming.pipe(outgoing);
    };
    if (!held) return forward();
    setTimeout(forward, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://localhost:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
