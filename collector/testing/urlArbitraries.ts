// Cheap fast-check generators of URLs as reports carry them: fc.webUrl() is thorough but slow
// (seconds per hundred runs on a loaded 2-core machine); these cover what the report rules care
// about (scheme, credentials, host, port, path, query, fragment) at a fraction of the cost.
import fc from 'fast-check';

const label = fc.constantFrom('shop', 'cdn', 'a', 'example', 'xn--bcher-kva', 'eval', 'inline', 'www', 'x-y');
/** Host names, IPv4 and IPv6 literals. */
export const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => [...labels, 'example'].join('.')),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.')),
  fc.constantFrom('[::1]', '[2001:db8::1]', 'localhost'),
);
const port = fc.oneof(fc.constant(''), fc.constantFrom(':80', ':443', ':8443'), fc.integer({ min: 1, max: 65535 }).map((value) => `:${value}`));
const userinfo = fc.oneof(fc.constant(''), fc.constantFrom('user@', 'user:pw@', 'a%40b:c@', 'a@b@'));
const segment = fc.oneof(fc.constantFrom('cart', 'x.png', 'a b', '%20', '..', 'ü', ';x', '@', ':443'), fc.string({ maxLength: 6 }).map(encodeURIComponent));
const path = fc.array(segment, { maxLength: 3 }).map((segments) => `/${segments.join('/')}`);
const query = fc.oneof(fc.constant(''), fc.constantFrom('?step=2', '?a=1&b=#', '?', '?x=:443/'));
const fragment = fc.oneof(fc.constant(''), fc.constantFrom('#top', '#', '#a#b', '#:443'));

/** An origin: scheme, host and maybe a port. */
export const origin = fc.tuple(fc.constantFrom('http', 'https'), host, port).map(([scheme, name, portPart]) => `${scheme}://${name}${portPart}`);

/**
 * A URL of a special scheme with the parts reports may carry, credentials and a fragment included.
 *
 * @example
 * fc.sample(reportedUrl, 1); // ['https://user@cdn.example:443/x.png?step=2#top']
 */
export const reportedUrl = fc
  .tuple(fc.constantFrom('http', 'https', 'ws', 'wss', 'HTTPS'), userinfo, host, port, path, query, fragment)
  .map(([scheme, credentials, name, portPart, pathPart, queryPart, hash]) => `${scheme}://${credentials}${name}${portPart}${pathPart}${queryPart}${hash}`);
