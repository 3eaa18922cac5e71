// A software WebAuthn authenticator for server tests: it makes P-256 passkeys and answers creation
// and sign-in options the way a browser and a platform authenticator do (attestation "none",
// discoverable credentials, user present and verified), so the server's checks meet real answers.
// The browser tests use Chromium's own virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** The little CBOR (RFC 8949) an attestation object needs: integers, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  if (value && typeof value === 'object') return cbor(new Map(Object.entries(value)));
  throw new Error(`cbor: ${typeof value} is not needed here`);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

interface Held {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly held: Held[] = [];

  /** `origin`: the page the browser would show; `counterStep` 0 for an authenticator without a signature counter (a
   * synced passkey). */
  origin: string;
  private readonly counterStep: number;

  constructor(origin: string, counterStep = 1) {
    this.origin = origin;
    this.counterStep = counterStep;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: a new passkey for the options' relying party and user. */
  create(options: CreationOptions, { origin = this.origin, rpId = options.rp.id ?? new URL(origin).hostname } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    this.held.push({ id, privateKey, userHandle: options.user.id, rpId, counter: 0 });
    const coseKey = new Map<number, number | Buffer>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    // Flags: user present, user verified, attested credential data.
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x01 | 0x04 | 0x40]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      length,
      id,
      cbor(coseKey),
    ]);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get: signs the options' challenge with a held passkey (the newest by default). */
  get(
    options: RequestOptions,
    {
      origin = this.origin,
      passkey = this.held.at(-1),
      counter,
    }: { origin?: string; passkey?: Held; counter?: number } = {},
  ) {
    if (!passkey) throw new Error('no passkey held');
    passkey.counter = counter ?? passkey.counter + this.counterStep;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(passkey.counter);
    const authData = Buffer.concat([sha256(options.rpId ?? passkey.rpId), Buffer.from([0x01 | 0x04]), count]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
    return {
      id: b64url(passkey.id),
      rawId: b64url(passkey.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
