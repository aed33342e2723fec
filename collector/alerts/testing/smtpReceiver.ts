import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message an SMTP receiver accepted: its envelope and its raw text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps what it accepts.
 * `user` and `pass` are the credentials it takes (plain AUTH, no TLS: it is a test on the loopback);
 * `options` add hooks (`onRcptTo` to refuse a recipient); `port` one to listen on (a server back up
 * where it was), else any free one.
 *
 * @example
 * const smtp = await startSmtpReceiver({ user: 'alerts', pass: 'pw' });
 * // smtp.url: 'smtp://alerts:pw@127.0.0.1:40123'; smtp.received: the messages; await smtp.close();
 */
export const startSmtpReceiver = async (credentials: { user: string; pass: string }, options: Partial<SMTPServerOptions> = {}, port = 0) => {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username == credentials.user && auth.password == credentials.pass ? callback(null, { user: auth.username }) : callback(new Error('Invalid username or password')),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map(({ address }) => address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
    ...options,
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const listening = (server.server.address() as AddressInfo).port;
  return {
    received,
    port: listening,
    url: `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${listening}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A parsed MIME entity: its headers (names lower-cased, unfolded, encoded words decoded) and its body or parts. */
export interface MimePart {
  headers: Map<string, string>;
  body: string;
  parts: MimePart[];
}

// RFC 2047 encoded words, as Nodemailer writes non-ASCII headers.
const decodeWords = (value: string) =>
  value.replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=\s*/g, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() == 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuoted(text.replace(/_/g, ' ')),
  );

const decodeQuoted = (text: string) => {
  const bytes: number[] = [];
  const flat = text.replace(/=\r?\n/g, '');
  for (let index = 0; index < flat.length; index++) {
    const hex = flat[index] == '=' ? /^[0-9A-Fa-f]{2}/.exec(flat.slice(index + 1, index + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      index += 2;
    } else bytes.push(...Buffer.from(flat[index]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
};

/**
 * A raw message parsed as far as a test reads it: headers, the body decoded (quoted-printable or
 * base64), multipart bodies split into parts.
 *
 * @example
 * const mail = parseMime(smtp.received[0].raw); mail.headers.get('subject');
 */
export const parseMime = (raw: string): MimePart => {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const rest = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    const sections = rest.split(`--${boundary}`).slice(1, -1);
    return { headers, body: '', parts: sections.map((section) => parseMime(section.replace(/^\r\n/, '').replace(/\r\n$/, ''))) };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body = encoding == 'base64' ? Buffer.from(rest, 'base64').toString('utf8') : encoding == 'quoted-printable' ? decodeQuoted(rest) : rest;
  return { headers, body: body.replace(/\r\n/g, '\n'), parts: [] };
};
