import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { Alert } from '../core/alerts/alert';
import { createMailer, sendEmail } from './sendEmail';
import { parseMime, startSmtpReceiver } from './testing/smtpReceiver';

const alert: Alert = {
  id: 'al_7',
  kind: 'new_issue',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: 'ab12', title: 'TypeError: <script>alert("x")</script> & café\r\nBcc: victim@example.com', page_url: 'https://shop.example/cart?a=1&b=2' },
  url: 'https://beacon.shop.example/sites/shop/errors/ab12',
  created_at: '2026-11-27T19:00:00.000Z',
};

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const receiver = async (options: Parameters<typeof startSmtpReceiver>[1] = {}) => {
  const smtp = await startSmtpReceiver({ user: 'alerts', pass: 'p@ss word' }, options);
  closers.push(smtp.close);
  return smtp;
};

const FROM = 'sitebeacon <alerts@beacon.shop.example>';

describe('sendEmail, to a real SMTP server', () => {
  test('the server receives the mail: From, To, the subject on one line, text and escaped HTML', async () => {
    const smtp = await receiver();
    const outcome = await sendEmail(createMailer(smtp.url, FROM), alert, 'owner@shop.example');
    expect(outcome).toEqual({ status: 'sent' });
    const [mail] = smtp.received;
    expect(mail!.from).toBe('alerts@beacon.shop.example');
    expect(mail!.to).toEqual(['owner@shop.example']);
    const message = parseMime(mail!.raw);
    expect(message.headers.get('from')).toBe(FROM);
    expect(message.headers.get('to')).toBe('owner@shop.example');
    expect(message.headers.get('subject')).toBe('[sitebeacon] New issue on Shop: TypeError: <script>alert("x")</script> & café Bcc: victim@example.com');
    // The report's "Bcc:" stayed in the subject: no header of its own, no extra recipient.
    expect(message.headers.has('bcc')).toBe(false);
    expect(message.headers.get('message-id')).toBe('<alert.al_7@sitebeacon>');
    expect(message.headers.get('auto-submitted')).toBe('auto-generated');
    const [text, html] = message.parts;
    expect(text!.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text!.body).toContain('Issue: TypeError: <script>alert("x")</script> & café Bcc: victim@example.com');
    expect(text!.body).toContain('Open in sitebeacon: https://beacon.shop.example/sites/shop/errors/ab12');
    expect(html!.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html!.body).toContain('TypeError: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; café');
    expect(html!.body).not.toContain('<script>');
    expect(html!.body).toContain('https://shop.example/cart?a=1&amp;b=2</td>');
    expect(html!.body).toContain('<a href="https://beacon.shop.example/sites/shop/errors/ab12">Open in sitebeacon</a>');
  });

  test('a permanent refusal of the recipient (550) fails', async () => {
    const smtp = await receiver({
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('No such user here'), { responseCode: 550 })),
    });
    const outcome = await sendEmail(createMailer(smtp.url, FROM), alert, 'nobody@shop.example');
    expect(outcome).toMatchObject({ status: 'fail', code: 550, error: expect.stringMatching(/^SMTP 550: .*No such user here/) });
    expect(smtp.received).toEqual([]);
  });

  test('a temporary refusal (451) is retried', async () => {
    const smtp = await receiver({
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 })),
    });
    expect(await sendEmail(createMailer(smtp.url, FROM), alert, 'owner@shop.example')).toMatchObject({ status: 'retry', code: 451 });
  });

  test('wrong credentials (535) fail: the operator has to fix --smtp-url', async () => {
    const smtp = await receiver();
    const url = smtp.url.replace('p%40ss%20word', 'wrong');
    expect(await sendEmail(createMailer(url, FROM), alert, 'owner@shop.example')).toMatchObject({ status: 'fail', code: 535 });
  });

  test('a refused connection is retried', async () => {
    const placeholder = createServer();
    placeholder.listen(0, '127.0.0.1');
    await once(placeholder, 'listening');
    const { port } = placeholder.address() as AddressInfo;
    await new Promise((resolve) => placeholder.close(resolve));
    const outcome = await sendEmail(createMailer(`smtp://127.0.0.1:${port}`, FROM), alert, 'owner@shop.example');
    expect(outcome).toMatchObject({ status: 'retry', error: expect.stringMatching(/ECONNREFUSED/) });
  });

  test('a server that never greets is retried after the timeout', async () => {
    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    closers.push(() => new Promise((resolve) => silent.close(resolve)));
    const { port } = silent.address() as AddressInfo;
    const outcome = await sendEmail(createMailer(`smtp://127.0.0.1:${port}`, FROM, { timeoutMs: 300 }), alert, 'owner@shop.example');
    expect(outcome).toMatchObject({ status: 'retry', error: expect.stringMatching(/^ETIMEDOUT/) });
  });

  test('--smtp-url must be smtp: or smtps:', () => {
    expect(() => createMailer('http://mail.example', FROM)).toThrow(/smtp:\/\/user:pass@host:port/);
    expect(createMailer('smtps://u:p@mail.example:465', FROM).from).toBe(FROM);
  });
});
