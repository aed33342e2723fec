/**
 * What a CSP summary groups by besides the directive: the blocked URI's host, or the keyword or
 * scheme CSP reports instead of a URL (`inline`, `eval`, `data`, `blob`...).
 */
export const blockedHostOf = (blockedUri: string | undefined) => {
  if (!blockedUri) return '';
  try {
    const url = new URL(blockedUri);
    return url.host || url.protocol.replace(/:$/, '');
  } catch {
    return blockedUri.replace(/:.*$/, '').slice(0, 64);
  }
};
