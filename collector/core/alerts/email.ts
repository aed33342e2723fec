import { alertFacts, alertHeadline, type Alert } from './alert';
import { escapeHtml, httpUrl, oneLine, truncate } from './text';

/** A subject's bound, in characters: far under a header line's limit, and what a mail client shows. */
export const SUBJECT_MAX = 180;
/** A fact's bound in a mail body: a message may be long, a mail should not be. */
const FACT_MAX = 1000;

const FOOTER = 'You receive this because an alert rule of sitebeacon sends to this address.';

/**
 * The mail subject: `[sitebeacon] ` and the headline, on one line (no CR or LF reaches the header,
 * so report text cannot add one) and bounded.
 *
 * @example
 * emailSubject(alert); // '[sitebeacon] New issue on Shop: TypeError: x is undefined'
 */
export const emailSubject = (alert: Alert): string => oneLine(`[sitebeacon] ${alertHeadline(alert)}`, SUBJECT_MAX);

/**
 * The plain-text body: the headline, the facts one per line, the dashboard link.
 *
 * @example
 * emailText(alert); // 'New issue on Shop: TypeError: ...\n\nSite: Shop (shop)\n...\nOpen in sitebeacon: https://...'
 */
export const emailText = (alert: Alert): string => {
  const facts = alertFacts(alert).map(([label, value]) => `${label}: ${oneLine(value, FACT_MAX)}`);
  const link = httpUrl(alert.url);
  return [oneLine(alertHeadline(alert), FACT_MAX), '', ...facts, '', ...(link ? [`Open in sitebeacon: ${link}`, ''] : []), '-- ', FOOTER, ''].join('\n');
};

/**
 * The HTML body: the same as the text, every value escaped, one link (to the dashboard; a report's
 * own URLs are text), no image, no remote resource, no tracking.
 *
 * @example
 * emailHtml(alert); // '<!doctype html><html>...<a href="https://...">Open in sitebeacon</a>...'
 */
export const emailHtml = (alert: Alert): string => {
  const said = oneLine(alertHeadline(alert), FACT_MAX);
  const headline = escapeHtml(said);
  const rows = alertFacts(alert)
    .map(([label, value]) => `<tr><th align="left" valign="top" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td style="padding:2px 0;word-break:break-word">${escapeHtml(oneLine(value, FACT_MAX))}</td></tr>`)
    .join('\n');
  const link = httpUrl(alert.url);
  const button = link ? `<p><a href="${escapeHtml(link)}">Open in sitebeacon</a></p>` : '';
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(truncate(said, SUBJECT_MAX))}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.4">',
    `<h1 style="font-size:16px">${headline}</h1>`,
    `<table role="presentation" cellspacing="0" cellpadding="0">\n${rows}\n</table>`,
    button,
    `<p style="color:#666;font-size:12px">${escapeHtml(FOOTER)}</p>`,
    '</body></html>',
    '',
  ].join('\n');
};
