import { parse, type DefaultTreeAdapterTypes } from 'parse5';

type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** A sitebeacon script tag found on a page (docs/beacon.md, "Script tag attributes"). */
export interface BeaconTag {
  src: string | undefined;
  siteKey: string | undefined;
  ingestOrigin: string | undefined;
  apiBase: string | undefined;
  /** Its SRI hash, which a `'strict-dynamic'` policy can allow it by. */
  integrity: string | undefined;
}

/** What the check reads from an HTML page. */
export interface HtmlFacts {
  /** The document's title (the first `<title>`), white space collapsed; '' when there is none. */
  title: string;
  /** The `content` of each `<meta http-equiv="Content-Security-Policy">` that counts, in order. */
  metaPolicies: string[];
  /** The page's `<script data-site-key>` tags. */
  beaconTags: BeaconTag[];
}

const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name == name)?.value;

const isHtml = (node: Node, tag: string): node is Element =>
  'tagName' in node && node.tagName == tag && node.namespaceURI == HTML_NS;

const textOf = (element: Element) => {
  let text = '';
  for (const child of element.childNodes) if (child.nodeName == '#text') text += (child as DefaultTreeAdapterTypes.TextNode).value;
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
};

/**
 * Reads a page the way a browser builds it (parse5 follows the HTML standard's tree construction,
 * so a `<meta>` that a browser moves into `<body>` lands there here too): its title, its meta CSPs
 * and its sitebeacon script tags. A meta CSP counts only as a child of `<head>` and with a
 * non-empty `content` (HTML, "Content security policy state" of `http-equiv`); `-Report-Only` is
 * not honoured in meta at all (CSP3 §3.3). Template contents are not part of the document.
 *
 * @example
 * readHtml('<head><meta http-equiv="content-security-policy" content="connect-src \'self\'"><title>Shop</title>');
 * // { title: 'Shop', metaPolicies: ["connect-src 'self'"], beaconTags: [] }
 */
export const readHtml = (html: string): HtmlFacts => {
  const facts: HtmlFacts = { title: '', metaPolicies: [], beaconTags: [] };
  let titleFound = false;
  // An explicit stack in document order: hostile pages may nest deeper than the call stack allows.
  const stack: Node[] = [parse(html)];
  while (stack.length) {
    const node = stack.pop()!;
    if (isHtml(node, 'title') && !titleFound) {
      titleFound = true;
      facts.title = textOf(node);
    } else if (isHtml(node, 'meta') && node.parentNode && isHtml(node.parentNode as Node, 'head')) {
      const equiv = attribute(node, 'http-equiv')?.trim().toLowerCase();
      const content = attribute(node, 'content');
      if (equiv == 'content-security-policy' && content) facts.metaPolicies.push(content);
    } else if (isHtml(node, 'script') && attribute(node, 'data-site-key') !== undefined) {
      facts.beaconTags.push({
        src: attribute(node, 'src'),
        siteKey: attribute(node, 'data-site-key'),
        ingestOrigin: attribute(node, 'data-ingest-origin'),
        apiBase: attribute(node, 'data-api-base'),
        integrity: attribute(node, 'integrity'),
      });
    }
    if ('childNodes' in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return facts;
};
