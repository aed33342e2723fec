import type { H3Event } from 'h3';

/**
 * The client's address. Behind a proxy (`--trust-proxy`) it is the last `X-Forwarded-For` entry:
 * the one our proxy appended. Earlier entries come from the client and can be anything.
 */
export const clientIp = (event: H3Event, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = event.req.headers.get('x-forwarded-for')?.split(',').pop()?.trim();
    if (forwarded) return forwarded;
  }
  return (event.req as { ip?: string }).ip || 'unknown';
};
