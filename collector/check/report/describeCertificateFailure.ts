import { interceptionProduct, type CertificateName } from './interceptionProduct';
import { printable } from './printable';
import type { CertificateFacts } from '../connection/startTls';

/** The reading of a failed TLS step: what the certificate points to, in one sentence. */
export interface CertificateDiagnosis {
  /** Spec section 7: "client clock, CA certificates or TLS inspection", plus a name that does not match. */
  pointsTo: 'clock' | 'CA certificates' | 'TLS interception' | 'name mismatch' | 'TLS';
  detail: string;
}

const UNKNOWN_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

const field = (name: CertificateName | undefined, key: string) => {
  const value = name?.[key];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** `"Zscaler Intermediate Root CA" (Zscaler Inc.)`, from a subject or issuer. */
const named = (name: CertificateName | undefined) => {
  const cn = field(name, 'CN');
  const org = field(name, 'O');
  const text = cn ? `"${cn}"${org && org != cn ? ` (${org})` : ''}` : org ? `"${org}"` : 'an unnamed issuer';
  return printable(text, 120);
};

const day = (date: string | undefined) => (date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString().slice(0, 10) : 'an unknown date');

/**
 * Explains a failed certificate verification: which of the clock (expired, not yet valid), the CA
 * certificates (unknown issuer), TLS interception (an issuer that looks like an inspection proxy)
 * or the name (the certificate is for another host) it points to, and what to do about it.
 * `chain` is what the server presented, leaf first (empty when it could not be read).
 *
 * @example
 * describeCertificateFailure('CERT_HAS_EXPIRED', [leaf], 'collector.example', new Date());
 * // { pointsTo: 'clock', detail: 'the certificate for collector.example expired on 2020-02-01, …' }
 */
export const describeCertificateFailure = (code: string, chain: CertificateFacts[], host: string, now: Date): CertificateDiagnosis => {
  const leaf = chain[0];
  const clock = now.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  if (code == 'CERT_HAS_EXPIRED') {
    return {
      pointsTo: 'clock',
      detail: `certificate error pointing to the clock: the certificate for ${host} expired on ${day(leaf?.valid_to)}, and this machine's clock says ${clock}. If that time is wrong, correct the clock (NTP); if it is right, the collector's certificate has lapsed and must be renewed`,
    };
  }
  if (code == 'CERT_NOT_YET_VALID') {
    return {
      pointsTo: 'clock',
      detail: `certificate error pointing to the clock: the certificate for ${host} is valid only from ${day(leaf?.valid_from)}, but this machine's clock says ${clock}: this machine's clock is behind; correct it (NTP)`,
    };
  }
  const product = interceptionProduct(chain);
  const issuer = named(leaf?.issuer);
  if (product && (UNKNOWN_ISSUER.has(code) || code == 'ERR_TLS_CERT_ALTNAME_INVALID')) {
    return {
      pointsTo: 'TLS interception',
      detail: `certificate error pointing to TLS interception: ${host} answered with a certificate issued by ${issuer}, which looks like ${product}, an inspection proxy on this network, whose root this machine does not trust (${code}). Have ${host} exempted from inspection, or add the proxy's root to this machine's CA certificates (try it first with --ca FILE)`,
    };
  }
  if (code == 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = printable(leaf?.subjectaltname || `CN=${field(leaf?.subject, 'CN') ?? '?'}`, 200);
    return {
      pointsTo: 'name mismatch',
      detail: `certificate error, name mismatch: the certificate presented is for ${names}, not for ${host}. Check the host in the URL (use the generated setup URL), or a proxy or load balancer answers with its own certificate (TLS interception)`,
    };
  }
  if (code == 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    return {
      pointsTo: 'CA certificates',
      detail: `certificate error pointing to the CA certificates: ${host} presents a self-signed certificate (${named(leaf?.subject)}) that no trusted CA vouches for. If this is your own collector, give it a certificate from a public CA (or pass its certificate with --ca to test); if it is not, a device on the network is intercepting TLS`,
    };
  }
  if (code == 'SELF_SIGNED_CERT_IN_CHAIN') {
    const root = named(chain[chain.length - 1]?.subject);
    return {
      pointsTo: 'CA certificates',
      detail: `certificate error pointing to the CA certificates: the chain for ${host} ends in the root ${root}, which this machine does not trust. A private CA: add its root to this machine's CA certificates (or --ca FILE); an unknown inspection proxy: have ${host} exempted`,
    };
  }
  if (UNKNOWN_ISSUER.has(code)) {
    return {
      pointsTo: 'CA certificates',
      detail: `certificate error pointing to the CA certificates: the issuer ${issuer} of ${host}'s certificate is not among this machine's trusted CAs (${code}). Update the CA certificates (the ca-certificates package); if the server sends no intermediate certificate, its chain must be completed; if the issuer is your network's inspection proxy, add its root`,
    };
  }
  return {
    pointsTo: 'TLS',
    detail: `certificate error (${code}) for ${host}, issued by ${issuer}: the certificate was refused; check this machine's clock and CA certificates`,
  };
};
