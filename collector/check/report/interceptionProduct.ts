/** A certificate's subject or issuer as Node gives it (a repeated field is an array). */
export type CertificateName = Partial<Record<string, string | string[]>>;

/**
 * Words that appear in the issuer names of TLS-inspecting proxies and security products, with the
 * product they point to. Matched as whole words, so that "eset" does not match "Preset".
 */
const PRODUCTS: Array<[needle: string, product: string]> = [
  ['zscaler', 'Zscaler'],
  ['fortinet', 'Fortinet FortiGate'],
  ['fortigate', 'Fortinet FortiGate'],
  ['palo alto', 'Palo Alto Networks'],
  ['netskope', 'Netskope'],
  ['blue coat', 'Blue Coat / Symantec ProxySG'],
  ['bluecoat', 'Blue Coat / Symantec ProxySG'],
  ['proxysg', 'Blue Coat / Symantec ProxySG'],
  ['symantec', 'Blue Coat / Symantec ProxySG'],
  ['sophos', 'Sophos'],
  ['cisco umbrella', 'Cisco Umbrella'],
  ['opendns', 'Cisco Umbrella'],
  ['kaspersky', 'Kaspersky'],
  ['eset', 'ESET'],
  ['avast', 'Avast'],
  ['avg', 'AVG'],
  ['bitdefender', 'Bitdefender'],
  ['check point', 'Check Point'],
  ['checkpoint', 'Check Point'],
  ['forcepoint', 'Forcepoint'],
  ['websense', 'Forcepoint (Websense)'],
  ['mcafee', 'McAfee / Skyhigh Web Gateway'],
  ['skyhigh', 'McAfee / Skyhigh Web Gateway'],
  ['barracuda', 'Barracuda'],
  ['watchguard', 'WatchGuard'],
  ['sonicwall', 'SonicWall'],
  ['cloudflare for teams', 'Cloudflare Gateway'],
  ['menlo security', 'Menlo Security'],
  ['iboss', 'iboss'],
  ['lightspeed', 'Lightspeed'],
  ['securly', 'Securly'],
  ['contentkeeper', 'ContentKeeper'],
  ['smoothwall', 'Smoothwall'],
  ['untangle', 'Untangle'],
  ['mitmproxy', 'mitmproxy'],
  ['charles proxy', 'Charles Proxy'],
  ['fiddlerroot', 'Fiddler'],
  ['portswigger', 'Burp Suite'],
];

const words = (name: CertificateName | undefined) =>
  ` ${Object.values(name ?? {})
    .flat()
    .join(' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(' ')} `;

/**
 * The inspection product that issued a certificate chain, judged by the issuer names (organisation,
 * unit, common name) of its certificates, or `undefined`. Only issuers are read: a site's own name
 * in the leaf's subject says nothing about who intercepts.
 *
 * @example
 * interceptionProduct([{ issuer: { CN: 'Zscaler Intermediate Root CA', O: 'Zscaler Inc.' } }]); // 'Zscaler'
 */
export const interceptionProduct = (chain: Array<{ issuer?: CertificateName }>): string | undefined => {
  for (const certificate of chain) {
    const issuer = words(certificate.issuer);
    const found = PRODUCTS.find(([needle]) => issuer.includes(` ${needle} `));
    if (found) return found[1];
  }
  return undefined;
};
