import { isIP } from 'node:net';

/**
 * Why an address is no webhook target unless the operator allows private ones (docs/alerts.md,
 * "Private targets"): a webhook URL is typed by a site's user, and the collector would otherwise
 * post from inside its own network to whatever listens there.
 */
export type AddressRange = 'unspecified' | 'loopback' | 'private' | 'link_local' | 'unique_local' | 'cgnat' | 'multicast' | 'reserved';

/** IPv4 ranges (RFC 6890's special-purpose registry, the ones a webhook must not reach), as CIDR and range. */
const IPV4: Array<[cidr: string, range: AddressRange]> = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const ipv4Number = (address: string) => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

const IPV4_RANGES = IPV4.map(([cidr, range]) => {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = ipv4Number(base);
  return { start, end: start + size - 1, range };
});

const ipv4Range = (address: string): AddressRange | undefined => {
  const value = ipv4Number(address);
  return IPV4_RANGES.find(({ start, end }) => value >= start && value <= end)?.range;
};

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part as two groups). */
const ipv6Groups = (address: string): number[] => {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4Number(dotted[1]!);
    text = text.slice(0, dotted.index) + `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
};

/** The IPv4 address in the last 32 bits of an IPv6 address's groups. */
const embeddedIpv4 = (groups: number[]) => `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;

const ipv6Range = (address: string): AddressRange | undefined => {
  const groups = ipv6Groups(address);
  const [first] = groups as [number];
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group == 0);
  if (groups.every((group) => group == 0)) return 'unspecified';
  if (zeroUpTo(7) && groups[7] == 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated) and the NAT64 prefix
  // (64:ff9b::a.b.c.d) reach an IPv4 address: that address decides.
  if (zeroUpTo(5) && (groups[5] == 0xffff || groups[5] == 0)) return ipv4Range(embeddedIpv4(groups));
  if (first == 0x64 && groups[1] == 0xff9b && groups.slice(2, 6).every((group) => group == 0)) return ipv4Range(embeddedIpv4(groups));
  // 6to4 (2002:a.b.c.d::/48) carries the IPv4 address in its second and third groups.
  if (first == 0x2002) return ipv4Range(embeddedIpv4([0, 0, 0, 0, 0, 0, groups[1]!, groups[2]!]));
  if ((first & 0xfe00) == 0xfc00) return 'unique_local';
  if ((first & 0xffc0) == 0xfe80) return 'link_local';
  // Site-local (fec0::/10): deprecated, still private where it is used.
  if ((first & 0xffc0) == 0xfec0) return 'private';
  if ((first & 0xff00) == 0xff00) return 'multicast';
  return undefined;
};

/**
 * The range that makes `address` (an IPv4 or IPv6 literal) no public webhook target, or undefined
 * for a public address. Not an IP address at all is `reserved`: only an address is checked.
 *
 * @example
 * privateRange('10.1.2.3'); // 'private'
 * privateRange('::ffff:127.0.0.1'); // 'loopback'
 * privateRange('93.184.215.14'); // undefined
 */
export const privateRange = (address: string): AddressRange | undefined => {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]!);
  if (family == 4) return ipv4Range(bare);
  if (family == 6) return ipv6Range(bare);
  return 'reserved';
};
