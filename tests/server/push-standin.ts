// A local stand-in for a browser's push service (RFC 8030) and the browser's side of RFC 8291: it
// receives the server's web-push requests over https on 127.0.0.1, answers what a test tells it to,
// and the subscription it hands out holds its ECDH private key and auth secret so the test can
// decrypt what the server sent (aes128gcm, RFC 8188) and check the VAPID signature (RFC 8292).
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

const tls = (file: string) => readFileSync(new URL(`../fixtures/tls/${file}`, import.meta.url));

export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushStandIn {
  origin: string;
  /** Trusts the stand-in's certificate (the fixture's self-signed one). */
  agent: Agent;
  received: PushRequest[];
  /** The status the next requests are answered with (201 Created by default). */
  answer(status: number): void;
  /**
   * `true`: the next requests get their status line and a first part of the body, then the connection is reset (a push
   * service or a proxy dropping it mid-answer); `false` (the default): answered whole.
   */
  breakMidAnswer(broken: boolean): void;
  /** A browser's subscription at this push service: the keys the server gets and the secrets it does not. */
  newSubscription(): BrowserSubscription;
  close(): Promise<void>;
}

export interface BrowserSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  ecdh: ECDH;
  authSecret: Buffer;
}

export async function startPushStandIn(): Promise<PushStandIn> {
  const received: PushRequest[] = [];
  let status = 201;
  let broken = false;
  const server: Server = createServer({ cert: tls('cert.pem'), key: tls('key.pem') }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      const head = status === 201 ? { location: `/message/${received.length}` } : {};
      if (!broken) return void response.writeHead(status, head).end();
      response.writeHead(status, { ...head, 'content-length': '100' });
      response.write('{"partial":', () => response.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let subscriptions = 0;
  return {
    origin,
    agent: new Agent({ ca: tls('cert.pem') }),
    received,
    answer: (next) => void (status = next),
    breakMidAnswer: (next) => void (broken = next),
    newSubscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      return {
        endpoint: `${origin}/push/${++subscriptions}-${randomBytes(8).toString('hex')}`,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: authSecret.toString('base64url'),
        ecdh,
        authSecret,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8291 (section 3.4) and RFC 8188: the plaintext of an aes128gcm push message body, as the browser decrypts it. */
export function decryptPush(body: Buffer, subscription: BrowserSubscription): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + keyIdLength);
  const ciphertext = body.subarray(21 + keyIdLength);
  if (keyIdLength !== 65 || ciphertext.length > recordSize)
    throw new Error('not a single-record aes128gcm message with a P-256 key id');
  const sharedSecret = subscription.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, subscription.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: the claims of the `vapid t=…, k=…` Authorization header, once its ES256 signature verifies with `k`;
 * throws otherwise. */
export function verifiedVapid(
  authorization: string | string[] | undefined,
  expectedKey: string,
): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(authorization));
  if (!match) throw new Error(`not a VAPID Authorization header: ${String(authorization)}`);
  const [, token, key] = match as unknown as [string, string, string];
  if (key !== expectedKey) throw new Error('the header names another public key');
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const [header, claims, signature] = token.split('.') as [string, string, string];
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID signature does not verify');
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('not ES256');
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
}
