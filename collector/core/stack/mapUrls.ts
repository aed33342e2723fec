/**
 * The URLs a script's map may be stored under, first found first: the URL as the stack names it,
 * then `~/` and its path (with its query, then without), for a map uploaded for any origin of
 * the site (docs/source-maps.md, "How a map is found"). Only http(s) scripts have a `~/` form.
 *
 * @example
 * mapUrlsOf('https://shop.example/app.min.js?v=2'); // ['https://shop.example/app.min.js?v=2', '~/app.min.js?v=2', '~/app.min.js']
 */
export const mapUrlsOf = (file: string): string[] => {
  if (!/^https?:\/\//i.test(file)) return [file];
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    return [file];
  }
  const path = `~${url.pathname}`;
  return [...new Set([file, url.search ? `${path}${url.search}` : path, path])];
};

/** The key of one stored map: a site's, for a release and a URL as uploaded (one cache entry each). */
export const mapKeyOf = (siteKey: string, release: string, url: string) => `${siteKey}\n${release}\n${url}`;
