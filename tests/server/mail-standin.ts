// Local stand-ins of the outside services messages leave through: a real SMTP server
// (smtp-server) that can check the credentials and refuse tries, and a small MIME reader for what
// it received; an HTTP server that records SMS provider requests and answers as told.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface MailStandIn {
  port: number;
  /** SMTP_URL for it, with the credentials it accepts. */
  url: string;
  mails: ReceivedMail[];
  /** Every RCPT TO it was offered, refused ones too. */
  tries: string[];
  /** Refuse the next `n` tries of a recipient with 451 (Infinity: always). */
  refuse(n: number): void;
  close(): Promise<void>;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 's3cret pass';

/**
 * `answerAfter`: the answer to each message's data waits for it (a server slow to accept, for as long as a test says).
 */
export async function startMailStandIn({
  port = 0,
  answerAfter = Promise.resolve(),
}: { port?: number; answerAfter?: Promise<void> } = {}): Promise<MailStandIn> {
  const mails: ReceivedMail[] = [];
  const tries: string[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    secure: false,
    // A test certificate would be refused by the mailer; the real server speaks TLS (smtps:// or STARTTLS).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      tries.push(address.address);
      if (refusals > 0) {
        refusals--;
        return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        void answerAfter.then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server as unknown as { server: Server }).server.address() as AddressInfo;
  return {
    port: listening.port,
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${listening.port}`,
    mails,
    tries,
    refuse(n) {
      refusals = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The parts of a received mail a person sees: the subject and the text and HTML bodies, decoded. */
export function readMail(raw: string): {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
} {
  const { headers, body } = splitPart(raw);
  const parts: Record<string, string> = {};
  collect(headers, body, parts);
  return {
    subject: decodeWords(headers['subject'] ?? ''),
    text: parts['text/plain'] ?? '',
    html: parts['text/html'] ?? '',
    headers,
  };
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function collect(headers: Record<string, string>, body: string, parts: Record<string, string>) {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const piece of body.split(`--${boundary}`).slice(1)) {
      if (piece.startsWith('--')) break;
      const part = splitPart(piece.replace(/^\r?\n/, ''));
      collect(part.headers, part.body, parts);
    }
    return;
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : Buffer.from(body, 'utf8');
  parts[type.split(';')[0]!.trim().toLowerCase()] = bytes.toString('utf8');
}

function quotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : quotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An HTTP stand-in: records each request and answers with `answer(request)` (201 and {} by default). */
export async function startHttpStandIn(
  answer: (request: RecordedRequest) => { status: number; body?: unknown } = () => ({ status: 201, body: {} }),
) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
