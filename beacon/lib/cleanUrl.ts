/**
 * Removes credentials (`user:password@`) and fragments (`#access_token=...`, which OAuth implicit
 * flows put there) from every URL in `text`: a whole URL (`page_url`, `blocked-uri`) or the URLs
 * inside a stack trace, where a frame's `:line:column` after the fragment is kept
 * (Firefox writes `f@https://shop.example/cart#top:14:15`; a `//# sourceURL=` with a fragment
 * shows in Chromium's stacks). Text that holds no `//` URL ("inline", "eval", `Foo.#private`) is
 * returned unchanged. Two regular expressions: no URL parsing, linear in the text.
 *
 * @example
 * cleanUrl('https://u:p@shop.example/cart?step=2#top') // 'https://shop.example/cart?step=2'
 * cleanUrl('at f (https://shop.example/a.js#v2:3:9)') // 'at f (https://shop.example/a.js:3:9)'
 */
export const cleanUrl = (text: string): string =>
  text
    // The last `@` before the path ends the credentials (WHATWG URL parsing).
    .replace(/\/\/[^\s/?#]*@/g, '//')
    // A fragment runs to the end of its token, less a trailing `:line:column`, `)` or `,`.
    .replace(/(\/\/[^\s#]*)#\S*?((:\d+)+\)*,?)?(?=\s|$)/g, '$1$2');
