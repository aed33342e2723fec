/**
 * True when a report's document URL is a page of one of the site's allowed origins. What stands in
 * for the `Origin` check when a browser's own report carries `Origin: null` (docs/csp-reports.md, "`Origin: null`"): WebKit
 * sends all of its reports so. An unparsable URL or an opaque origin is never allowed.
 *
 * @example
 * isAllowedDocument('https://shop.example/cart?step=2', ['https://shop.example']); // true
 * isAllowedDocument('https://shop.example.evil.test/', ['https://shop.example']);  // false
 */
export const isAllowedDocument = (documentUri: string | undefined, allowedOrigins: readonly string[]) => {
  if (!documentUri || !URL.canParse(documentUri)) return false;
  const { origin } = new URL(documentUri);
  return origin != 'null' && allowedOrigins.includes(origin);
};
