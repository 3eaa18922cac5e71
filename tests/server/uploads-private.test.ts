// Private pictures stay private: certification documents (front, back, holding it) and transfer
// receipts are served at /api/uploads/<id> to their owner's token only, with `private, no-store`;
// anyone else (no token, another customer's token, a logged-out token) gets the very answer an id
// that never existed gets, and no byte. An avatar is a copy made when it is set, served like any
// picture to its owner (with a long private cache, for offline use) and a reviewer only; a picture
// sent as an identity document or a receipt cannot become it, and the avatar's copy can be neither.
// An avatar an earlier version made public is public no longer. The operator command writes any of
// them to a file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, labelledPng, refused, uploadFile } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { editAvatar, logout, userInfo } from '../../src/api-contract/account.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { submitRecharge } from '../../src/api-contract/funds.ts';
import { certifications, uploads, users } from '../../src/server/db/schema.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { operatorToken } from './console-helpers.ts';
import { runOpsCommandOk } from './server-process.ts';
import { serveOperatorCommands } from '../../src/server/ops/socket.ts';

let h: Harness;
let owner: Awaited<ReturnType<typeof customer>>;
let stranger: Awaited<ReturnType<typeof customer>>;
/** Every kind of upload the owner made, each used the way the app uses it, with its bytes. */
const kinds = new Map<string, { url: string; bytes: Uint8Array }>();
let folder: string;
let reviewer: string;

/** A distinct real picture per kind. */
const pictureOf = labelledPng;

async function upload(token: string, label: string) {
  const bytes = pictureOf(label);
  const res = await uploadFile(h, token, { bytes, name: `${label}.png`, type: 'image/png' });
  expect(res).toMatchObject({ ret: 1, data: { url: expect.stringMatching(/^\/api\/uploads\//) } });
  return { url: res.data.url as string, bytes };
}

const get = (url: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'GET', url, headers: { lang: 'en', ...headers } });

beforeAll(async () => {
  h = await startHarness();
  owner = await customer(h);
  stranger = await customer(h);
  folder = mkdtempSync(join(tmpdir(), 'coinvest-pictures-'));
  reviewer = await operatorToken(h, 'picture-reviewer', 'reviewer');

  const front = await upload(owner.token, 'document-front');
  const primary = {
    level: 'primary',
    doc_type: 'passport',
    name: 'Somchai Jaidee',
    number: 'AA98765432',
    image: front.url,
  };
  expect((await h.call(submitCertification, primary, { token: owner.token })).ret).toBe(1);
  const [submission] = await h.database.db
    .select({ id: certifications.id })
    .from(certifications)
    .where(and(eq(certifications.userId, owner.id), eq(certifications.level, 'primary')))
    .orderBy(desc(certifications.id))
    .limit(1);
  await opsOk(h, 'certification', 'approve', String(submission!.id));
  const back = await upload(owner.token, 'document-back');
  const hold = await upload(owner.token, 'holding-document');
  expect(
    (
      await h.call(
        submitCertification,
        { level: 'advanced', image_back: back.url, image_hold: hold.url },
        { token: owner.token },
      )
    ).ret,
  ).toBe(1);

  const receipt = await upload(owner.token, 'transfer-receipt');
  expect(
    (
      await h.call(
        submitRecharge,
        { kind: 'bank', channel_id: '4', amount: '1000', proof: receipt.url },
        { token: owner.token },
      )
    ).ret,
  ).toBe(1);

  kinds
    .set('certification front', front)
    .set('certification back', back)
    .set('certification holding the document', hold)
    .set('transfer receipt', receipt);
  kinds.set('picture uploaded but not used yet', await upload(owner.token, 'unused'));
});
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await h.close();
});

/** The one answer every refusal gives: the not-found envelope, kept by no cache, no picture. */
async function expectUnavailable(url: string, headers: Record<string, string> = {}) {
  const res = await get(url, headers);
  expect(res.statusCode).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json()).toEqual(refused('The picture could not be loaded.'));
  return res;
}

describe.each([
  'certification front',
  'certification back',
  'certification holding the document',
  'transfer receipt',
  'picture uploaded but not used yet',
])('a %s', (kind) => {
  it('is not served without a token', async () => {
    const res = await expectUnavailable(kinds.get(kind)!.url);
    expect(res.rawPayload.includes(Buffer.from(kinds.get(kind)!.bytes.slice(0, 8)))).toBe(false);
  });

  it("is not served with another customer's token", async () => {
    await expectUnavailable(kinds.get(kind)!.url, { token: stranger.token });
  });

  it('is not served with a made-up token', async () => {
    await expectUnavailable(kinds.get(kind)!.url, { token: 'not-a-session-token' });
  });

  it('is served to its owner, bytes and type, and kept by no cache', async () => {
    const res = await get(kinds.get(kind)!.url, { token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(new Uint8Array(res.rawPayload)).toEqual(kinds.get(kind)!.bytes);
  });
});

it('refuses a private picture exactly as an id that never existed, or a malformed one', async () => {
  const { url } = kinds.get('certification front')!;
  const answers = await Promise.all([
    get(url),
    get(url, { token: stranger.token }),
    get('/api/uploads/NoSuchPictureEver123', { token: stranger.token }),
    get('/api/uploads/NoSuchPictureEver123'),
    get('/api/uploads/x'),
  ]);
  const shape = (res: (typeof answers)[number]) => ({
    status: res.statusCode,
    type: res.headers['content-type'],
    cache: res.headers['cache-control'],
    body: res.body,
  });
  for (const res of answers) expect(shape(res)).toEqual(shape(answers[0]!));
});

it("translates the refusal into the caller's language", async () => {
  const res = await get('/api/uploads/NoSuchPictureEver123', { lang: 'zh' });
  expect(res.statusCode).toBe(404);
  expect(res.json().msg).not.toBe('The picture could not be loaded.');
  expect(res.json().msg).toMatch(/\p{Script=Han}/u);
});

it('is no longer served to its owner after they log out with that token', async () => {
  const device = await customer(h);
  const picture = await upload(device.token, 'logged-out');
  expect((await get(picture.url, { token: device.token })).statusCode).toBe(200);
  expect((await h.call(logout, {}, { token: device.token })).ret).toBe(1);
  await expectUnavailable(picture.url, { token: device.token });
});

/**
 * Sets the avatar from `url` and answers the avatar's own URL, after checking its owner and a reviewer get it (the
 * owner's browser may keep it, under that token only) and nobody else does.
 */
async function setAvatar(token: string, url: string, bytes: Uint8Array): Promise<string> {
  const set = await h.call(editAvatar, { userimg: url }, { token });
  expect(set).toMatchObject({ ret: 1, data: { userimg: expect.stringMatching(/^\/api\/uploads\//) } });
  const avatarUrl = set.data.userimg;
  expect(avatarUrl).not.toBe(url);
  expect((await h.call(userInfo, {}, { token })).data.userimg).toBe(avatarUrl);
  for (const viewer of [token, reviewer]) {
    const res = await get(avatarUrl, { token: viewer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/\btoken\b/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(new Uint8Array(res.rawPayload)).toEqual(bytes);
  }
  await expectUnavailable(avatarUrl);
  await expectUnavailable(avatarUrl, { token: stranger.token });
  return avatarUrl;
}

/** Served to its owner only, kept by no cache. */
async function expectPrivate(url: string, bytes: Uint8Array, ownerToken: string) {
  await expectUnavailable(url);
  await expectUnavailable(url, { token: stranger.token });
  const res = await get(url, { token: ownerToken });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(new Uint8Array(res.rawPayload)).toEqual(bytes);
}

describe('an avatar', () => {
  it('is a copy once set, served to its owner and a reviewer only; the upload stays private', async () => {
    const avatar = await upload(owner.token, 'avatar');
    await expectUnavailable(avatar.url);
    await setAvatar(owner.token, avatar.url, avatar.bytes);
    await expectPrivate(avatar.url, avatar.bytes, owner.token);
    // The owner's documents stay private too.
    await expectUnavailable(kinds.get('certification front')!.url);
  });

  it('cannot be made from an identity document: refused in the customer’s language, nothing changes', async () => {
    const person = await customer(h);
    const document = await upload(person.token, 'passport-and-avatar');
    const primary = {
      level: 'primary',
      doc_type: 'passport',
      name: 'Malee Srisuk',
      number: 'AB1234567',
      image: document.url,
    };
    expect((await h.call(submitCertification, primary, { token: person.token })).ret).toBe(1);
    expect(await h.call(editAvatar, { userimg: document.url }, { token: person.token })).toEqual(
      refused('A picture sent as a document or a receipt cannot be your avatar: please choose another picture!'),
    );
    const thai = await h.call(editAvatar, { userimg: document.url }, { token: person.token, lang: 'th' });
    expect(thai.ret).toBe(0);
    expect(thai.msg).toMatch(/[\u0E00-\u0E7F]/);
    expect((await h.call(userInfo, {}, { token: person.token })).data.userimg).toBe('');
    await expectPrivate(document.url, document.bytes, person.token);
  });

  it('cannot be made from a transfer receipt', async () => {
    const person = await customer(h);
    const receipt = await upload(person.token, 'receipt-and-avatar');
    expect(
      (
        await h.call(
          submitRecharge,
          { kind: 'bank', channel_id: '4', amount: '500', proof: receipt.url },
          { token: person.token },
        )
      ).ret,
    ).toBe(1);
    expect(await h.call(editAvatar, { userimg: receipt.url }, { token: person.token })).toEqual(
      refused('A picture sent as a document or a receipt cannot be your avatar: please choose another picture!'),
    );
    await expectPrivate(receipt.url, receipt.bytes, person.token);
  });

  it('set first, then the same upload sent as the document and the receipt: both stay private', async () => {
    const person = await customer(h);
    const picture = await upload(person.token, 'avatar-then-documents');
    await setAvatar(person.token, picture.url, picture.bytes);
    const primary = {
      level: 'primary',
      doc_type: 'id_card',
      name: 'Anan Wong',
      number: '1101700203451',
      image: picture.url,
    };
    expect((await h.call(submitCertification, primary, { token: person.token })).ret).toBe(1);
    expect(
      (
        await h.call(
          submitRecharge,
          { kind: 'bank', channel_id: '4', amount: '500', proof: picture.url },
          { token: person.token },
        )
      ).ret,
    ).toBe(1);
    await expectPrivate(picture.url, picture.bytes, person.token);
  });

  it("cannot be sent as a document or a receipt: its public copy is the avatar's only", async () => {
    const person = await customer(h);
    const picture = await upload(person.token, 'avatar-copy');
    const avatarUrl = await setAvatar(person.token, picture.url, picture.bytes);
    const primary = {
      level: 'primary',
      doc_type: 'passport',
      name: 'Kanya Dee',
      number: 'AC7654321',
      image: avatarUrl,
    };
    expect(await h.call(submitCertification, primary, { token: person.token })).toEqual(
      refused('Please upload a photo of the document!'),
    );
    expect(
      await h.call(
        submitRecharge,
        { kind: 'bank', channel_id: '4', amount: '500', proof: avatarUrl },
        { token: person.token },
      ),
    ).toEqual(refused('Please upload the transfer receipt!'));
  });

  it('replaced, its old copy is gone; set again, it stays the same', async () => {
    const person = await customer(h);
    const first = await upload(person.token, 'first-avatar');
    const firstAvatar = await setAvatar(person.token, first.url, first.bytes);
    const second = await upload(person.token, 'second-avatar');
    const secondAvatar = await setAvatar(person.token, second.url, second.bytes);
    expect(await h.call(editAvatar, { userimg: secondAvatar }, { token: person.token })).toMatchObject({
      ret: 1,
      data: { userimg: secondAvatar },
    });
    expect((await get(secondAvatar, { token: person.token })).statusCode).toBe(200);
    await expectUnavailable(firstAvatar);
    await expectUnavailable(firstAvatar, { token: person.token });
    // The upload it was made from is the customer's, as before.
    await expectPrivate(first.url, first.bytes, person.token);
  });

  it("cannot be another customer's private picture, which stays private", async () => {
    const { url } = kinds.get('certification front')!;
    expect(await h.call(editAvatar, { userimg: url }, { token: stranger.token })).toEqual(
      refused('Failed to upload picture, please try again later!'),
    );
    await expectUnavailable(url);
    await expectUnavailable(url, { token: stranger.token });
  });
});

it('an avatar that the old rule made public with the document it also was gets its own copy, and the document is private again (migration 0014)', async () => {
  const person = await customer(h);
  const picture = await upload(person.token, 'public-before');
  const primary = {
    level: 'primary',
    doc_type: 'passport',
    name: 'Prasert Chai',
    number: 'AD1122334',
    image: picture.url,
  };
  expect((await h.call(submitCertification, primary, { token: person.token })).ret).toBe(1);
  // What the old rule did: the upload itself made public as the avatar.
  const id = picture.url.slice('/api/uploads/'.length);
  await h.database.db.update(uploads).set({ isPublic: true }).where(eq(uploads.id, id));
  await h.database.db.update(users).set({ avatar: picture.url }).where(eq(users.id, person.id));
  // Marked public, it is served to no one but its owner now: the old rule's harm is undone before the migration too.
  await expectUnavailable(picture.url);

  const migration = readFileSync(resolve('src/server/db/migrations/0014_upload_bounds.sql'), 'utf8').split(
    '--> statement-breakpoint',
  );
  await h.database.db.execute(sql.raw(migration[1]!));

  await expectUnavailable(picture.url);
  await expectUnavailable(picture.url, { token: stranger.token });
  const avatar = (await h.call(userInfo, {}, { token: person.token })).data.userimg;
  expect(avatar).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{10,64}$/);
  expect(avatar).not.toBe(picture.url);
  const served = await get(avatar, { token: person.token });
  expect(served.statusCode).toBe(200);
  expect(new Uint8Array(served.rawPayload)).toEqual(picture.bytes);
  // Since then, an avatar is served to its owner only: the copy the migration made public is no longer.
  await expectUnavailable(avatar);
  await expectUnavailable(avatar, { token: stranger.token });
});

it('an avatar an earlier version made public is public no longer, without any change to the data', async () => {
  const person = await customer(h);
  const picture = await upload(person.token, 'public-avatar-before');
  const avatar = await setAvatar(person.token, picture.url, picture.bytes);
  const [row] = await h.database.db
    .select({ isPublic: uploads.isPublic })
    .from(uploads)
    .where(eq(uploads.id, avatar.slice('/api/uploads/'.length)));
  expect(row!.isPublic).toBe(true);
  await expectUnavailable(avatar);
  await expectUnavailable(avatar, { token: stranger.token });
  expect((await get(avatar, { token: reviewer })).statusCode).toBe(200);
});

describe('the operator command picture', () => {
  it('writes any private picture to a new file readable by the operator only', async () => {
    for (const [kind, { url, bytes }] of kinds) {
      const file = join(folder, `${kind.replaceAll(' ', '-')}.png`);
      const output = await opsOk(h, 'picture', url, file);
      expect(output).toMatch(
        new RegExp(
          `^Wrote picture ${url.slice('/api/uploads/'.length)} \\(image/png, \\d+ bytes\\) of ${owner.phone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; it is private\\.$`,
        ),
      );
      expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('takes the bare id as well as the URL', async () => {
    const { url, bytes } = kinds.get('transfer receipt')!;
    const file = join(folder, 'by-id.png');
    await opsOk(h, 'picture', url.slice('/api/uploads/'.length), file);
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
  });

  it('never overwrites a file, and says what is wrong', async () => {
    const { url } = kinds.get('transfer receipt')!;
    const file = join(folder, 'kept.txt');
    writeFileSync(file, 'keep me');
    expect(await ops(h, 'picture', url, file)).toEqual({
      ok: false,
      output: `${file} already exists: choose a new file name.`,
    });
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(await ops(h, 'picture', '/api/uploads/NoSuchPictureEver123', join(folder, 'none.png'))).toEqual({
      ok: false,
      output: 'No picture "/api/uploads/NoSuchPictureEver123".',
    });
    expect(existsSync(join(folder, 'none.png'))).toBe(false);
    expect(await ops(h, 'picture', url)).toMatchObject({
      ok: false,
      output: expect.stringMatching(/^Usage: picture /),
    });
  });

  it("works as typed in another folder, through a running server's operator socket", async () => {
    // This process plays the server holding the embedded database: its lock file and its socket.
    const dataDir = join(folder, 'data');
    const operatorFolder = join(folder, 'operator');
    mkdirSync(dataDir);
    mkdirSync(operatorFolder);
    writeFileSync(join(dataDir, '.server.lock'), String(process.pid));
    const stop = await serveOperatorCommands(dataDir, (argv) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv),
    );
    try {
      const { url, bytes } = kinds.get('certification holding the document')!;
      const printed = (
        await runOpsCommandOk(['picture', url, 'holding.png'], { cwd: operatorFolder, env: { DATA_DIR: dataDir } })
      ).trim();
      // The relative name is the operator's folder, not the server's.
      const file = join(operatorFolder, 'holding.png');
      expect(printed).toBe(
        `Wrote picture ${url.slice('/api/uploads/'.length)} (image/png, ${bytes.length} bytes) of ${owner.phone} to ${file}; it is private.`,
      );
      expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
    } finally {
      await stop();
    }
    // The project's limit (90 s), not 30: the operator command is a Node process of its own, 2.3 s on an idle machine,
    // 6.6 s beside four busy loops, and over 30 s once in a clean-clone run with the machine 100 % busy (2026-12-01).
  });
});
