import { isIP, type Socket } from 'node:net';
import { connect, type ConnectionOptions, type SecureContext, type TLSSocket } from 'node:tls';
import { whenConnected } from './whenConnected';

const handshake = (socket: Socket, options: ConnectionOptions, signal: AbortSignal): Promise<TLSSocket> =>
  whenConnected(connect({ ...options, socket }), 'secureConnect', signal, socket);

/** SNI names a host, never an address (RFC 6066 §3); the identity check uses `host` either way. */
const names = (host: string) => (isIP(host) ? { host } : { host, servername: host });

/**
 * The TLS handshake on an open connection, with certificate verification on (spec section 7:
 * "certificate verification stays enabled"): the chain must lead to a root of `secureContext` and name `host`.
 * Rejects with Node's error, whose `code` (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, …) the
 * caller explains. HTTP/1.1 only, as the integrations speak it.
 *
 * @example
 * const secure = await startTls(socket, { host: 'collector.example', secureContext }, signal);
 */
export const startTls = (socket: Socket, { host, secureContext }: { host: string; secureContext: SecureContext }, signal: AbortSignal): Promise<TLSSocket> =>
  handshake(socket, { ...names(host), secureContext, rejectUnauthorized: true, ALPNProtocols: ['http/1.1'] }, signal);

/** What the check reads from a certificate to explain a failure. */
export interface CertificateFacts {
  subject?: Partial<Record<string, string | string[]>>;
  issuer?: Partial<Record<string, string | string[]>>;
  valid_from?: string;
  valid_to?: string;
  subjectaltname?: string;
}

/**
 * The certificate chain the server presents, leaf first, read to explain why verification failed.
 * This second handshake does not verify, so it sends nothing and is closed as soon as the chain is
 * read: no request ever travels over an unverified connection.
 *
 * @example
 * const chain = await inspectCertificate(socket, 'collector.example', signal); // [leaf, issuer, …]
 */
export const inspectCertificate = async (socket: Socket, host: string, signal: AbortSignal): Promise<CertificateFacts[]> => {
  const secure = await handshake(socket, { ...names(host), rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, signal);
  try {
    const chain: CertificateFacts[] = [];
    const seen = new Set<string>();
    for (let certificate = secure.getPeerCertificate(true); certificate && certificate.fingerprint256; certificate = certificate.issuerCertificate) {
      if (seen.has(certificate.fingerprint256)) break;
      seen.add(certificate.fingerprint256);
      const { subject, issuer, valid_from, valid_to, subjectaltname } = certificate;
      chain.push({ subject, issuer, valid_from, valid_to, subjectaltname });
    }
    return chain;
  } finally {
    secure.destroy();
  }
};
