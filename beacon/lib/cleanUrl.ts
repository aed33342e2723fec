/**
 * Returns `url` without credentials and without its fragment: reports must never carry a
 * page's `user:password@` or the `#access_token=...` that OAuth implicit flows put there.
 * Values that are not absolute URLs (for example "inline" or "eval") are returned unchanged.
 */
export const cleanUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    parsed.username = parsed.password = parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
};
