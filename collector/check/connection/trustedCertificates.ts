import { existsSync, readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/**
 * Where Linux distributions (and macOS, Alpine) keep the system's CA bundle. PHP's curl in the
 * WordPress plugin and the server agents trust this store, so the check trusts it too: a TLS
 * inspection root that the administrator installed there is trusted here as it is there.
 */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/** The roots the TLS step trusts, and the list of where they came from (the check prints it). */
export interface TrustedCertificates {
  /** Built once: parsing a few hundred roots per handshake would be counted in the step's time. */
  secureContext: SecureContext;
  sources: string[];
}

/**
 * Node's bundled Mozilla roots, the system bundle, `NODE_EXTRA_CA_CERTS`, and the `--ca FILE` the
 * user gives (to test a private CA or an inspection proxy's root before installing it).
 * Verification itself is never turned off. Throws when `--ca` cannot be read.
 *
 * @example
 * const { secureContext } = trustedCertificates({ extraCaFile: '/tmp/corp-root.pem', env: process.env });
 */
export const trustedCertificates = ({ extraCaFile, env }: { extraCaFile?: string | undefined; env: Record<string, string | undefined> }): TrustedCertificates => {
  const ca = [...rootCertificates];
  const sources = ["Node's bundled CAs"];
  const system = SYSTEM_BUNDLES.find((file) => existsSync(file));
  if (system) {
    ca.push(readFileSync(system, 'utf8'));
    sources.push(system);
  }
  const nodeExtra = env.NODE_EXTRA_CA_CERTS;
  if (nodeExtra && existsSync(nodeExtra)) {
    ca.push(readFileSync(nodeExtra, 'utf8'));
    sources.push(`NODE_EXTRA_CA_CERTS (${nodeExtra})`);
  }
  if (extraCaFile) {
    const pem = readFileSync(extraCaFile, 'utf8');
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`--ca ${extraCaFile} holds no PEM certificate`);
    ca.push(pem);
    sources.push(`--ca ${extraCaFile}`);
  }
  return { secureContext: createSecureContext({ ca }), sources };
};
