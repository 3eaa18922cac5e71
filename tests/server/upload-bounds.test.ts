// Uploads are bounded per account: at most 52 pictures (UPLOAD_MAX_COUNT) and 100 MB in all,
// also when uploads come at once; the bound answers a text that says what to do. Pictures kept as the
// record of a reviewed recharge or certification do not count. A picture nothing refers to is
// deleted 24 h after its upload (the job, and the account's own next upload), which frees its place;
// one in use, or uploaded minutes ago, is kept.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, labelledPng, refused, uploadFile } from './helpers.ts';
import { opsOk } from './funds-helpers.ts';
import { editAvatar, login } from '../../src/api-contract/account.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { submitRecharge } from '../../src/api-contract/funds.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { uploads } from '../../src/server/db/schema.ts';
import { ownsUploads } from '../../src/server/domain/uploads.ts';
import { deleteUnusedUploads } from '../../src/server/jobs/unused-uploads.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MiB = 1024 * 1024;
const BOUND = refused(
  'You have reached the limit of pictures an account can keep (52 pictures, 100 MB in all). Pictures you did not use are deleted 24 hours after upload: please try again later!',
);

/** A distinct real picture per label. */
const pictureOf = labelledPng;

async function upload(token: string, label = 'picture', lang = 'en') {
  if (lang === 'en') return uploadFile(h, token, { bytes: pictureOf(label), name: `${label}.png`, type: 'image/png' });
  const form = new FormData();
  form.append('image', new Blob([pictureOf(label)], { type: 'image/png' }), `${label}.png`);
  const encoded = new Response(form);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { lang, token, 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  return res.json();
}

async function uploaded(token: string, label: string): Promise<string> {
  const res = await upload(token, label);
  expect(res).toMatchObject({ ret: 1, data: { url: expect.stringMatching(/^\/api\/uploads\//) } });
  return res.data.url;
}

/** Pictures the account stores, as rows. */
const storedOf = async (userId: number) =>
  Number((await h.database.db.select({ n: count() }).from(uploads).where(eq(uploads.userId, userId)))[0]!.n);

/** `n` pictures of `bytes` each the account uploaded at the clock's now (written directly: a faster way to an account
 * near its bound). */
async function storeEarlier(userId: number, n: number, bytes = 70) {
  await h.database.db.execute(sql`
    insert into uploads (id, user_id, mime, bytes, created_at)
    select 'earlier' || md5(random()::text || s), ${userId}, 'image/png', convert_to(repeat('x', ${bytes}), 'UTF8'), ${h.clock.now().toISOString()}::timestamptz
    from generate_series(1, ${n}) s`);
}

/** Served to its owner (true), or gone (the not-found answer). */
const servedToOwner = async (url: string, token: string) =>
  (await h.app.inject({ method: 'GET', url, headers: { token } })).statusCode === 200;

describe('the bound of an account', () => {
  it('keeps 52 pictures uploaded in a row and refuses the 53rd, keeping nothing; another account is not affected', async () => {
    const me = await customer(h);
    const other = await customer(h);
    for (let n = 1; n <= 52; n++) expect((await upload(me.token, `picture-${n}`)).ret).toBe(1);
    expect(await upload(me.token, 'one-too-many')).toEqual(BOUND);
    expect(await upload(me.token, 'and-another')).toEqual(BOUND);
    expect(await storedOf(me.id)).toBe(52);
    expect((await upload(other.token, 'theirs')).ret).toBe(1);
  });

  it("answers the bound in the customer's language, with its figures", async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 52);
    const res = await upload(me.token, 'over', 'zh');
    expect(res).toMatchObject({ ret: 0, data: null });
    expect(res.msg).toMatch(/\p{Script=Han}/u);
    for (const figure of ['52', '100', '24']) expect(res.msg).toContain(figure);
  });

  it('counts bytes too: 100 MB in all, whatever the number of pictures', async () => {
    const me = await customer(h);
    const size = pictureOf('fits').length;
    // 20 pictures that leave exactly room for one more small one.
    await storeEarlier(me.id, 19, 5 * MiB);
    await storeEarlier(me.id, 1, 5 * MiB - size);
    expect((await upload(me.token, 'fits')).ret).toBe(1);
    expect(await upload(me.token, 'over')).toEqual(BOUND);
    expect(await storedOf(me.id)).toBe(21);
  });

  it('holds for uploads at once: two at 51 keep one, thirty at 40 keep twelve', async () => {
    const first = await customer(h);
    await storeEarlier(first.id, 51);
    const pair = await Promise.all([upload(first.token, 'a'), upload(first.token, 'b')]);
    expect(pair.filter((res) => res.ret === 1)).toHaveLength(1);
    expect(pair.filter((res) => res.ret !== 1)).toEqual([BOUND]);
    expect(await storedOf(first.id)).toBe(52);

    const second = await customer(h);
    await storeEarlier(second.id, 40);
    const burst = await Promise.all(Array.from({ length: 30 }, (_, n) => upload(second.token, `burst-${n}`)));
    expect(burst.filter((res) => res.ret === 1)).toHaveLength(12);
    for (const res of burst.filter((answer) => answer.ret !== 1)) expect(res).toEqual(BOUND);
    expect(await storedOf(second.id)).toBe(52);
  });

  it("counts a pending recharge's receipt, not a reviewed one's: the record the customer cannot remove", async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 51);
    const receipt = await uploaded(me.token, 'receipt');
    const order = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000', proof: receipt },
      { token: me.token },
    );
    expect(order.ret).toBe(1);
    expect(await upload(me.token, 'while-pending')).toEqual(BOUND);
    await opsOk(h, 'recharge', 'reject', String(order.data.id), 'No transfer arrived');
    expect((await upload(me.token, 'after-review')).ret).toBe(1);
    expect(await upload(me.token, 'over-again')).toEqual(BOUND);
    // The reviewed receipt itself is kept for its record.
    expect(await servedToOwner(receipt, me.token)).toBe(true);
  });

  it('counts the avatar: setting one at the bound is refused with the bound, and nothing changes', async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 51);
    const picture = await uploaded(me.token, 'avatar');
    expect(await h.call(editAvatar, { userimg: picture }, { token: me.token })).toEqual(BOUND);
    expect(await storedOf(me.id)).toBe(52);
  });
});

describe('pictures nothing refers to', () => {
  it('are deleted 24 h after their upload; an avatar, a receipt and a document are kept, and so is a picture uploaded minutes ago', async () => {
    const me = await customer(h);
    const unused = await uploaded(me.token, 'unused');
    const receipt = await uploaded(me.token, 'receipt');
    expect(
      (
        await h.call(
          submitRecharge,
          { kind: 'bank', channel_id: '4', amount: '1000', proof: receipt },
          { token: me.token },
        )
      ).ret,
    ).toBe(1);
    const document = await uploaded(me.token, 'document');
    const primary = {
      level: 'primary',
      doc_type: 'passport',
      name: 'Somchai Jaidee',
      number: 'AA98765432',
      image: document,
    };
    expect((await h.call(submitCertification, primary, { token: me.token })).ret).toBe(1);
    const avatarSource = await uploaded(me.token, 'avatar');
    const avatar = (await h.call(editAvatar, { userimg: avatarSource }, { token: me.token })).data.userimg;

    // A minute before the end of the grace, the customer may still be filling a form: all kept.
    h.clock.advance(24 * HOUR - MINUTE);
    await deleteUnusedUploads(h.database.db, h.clock.now());
    for (const url of [unused, receipt, document, avatarSource, avatar])
      expect(await servedToOwner(url, me.token)).toBe(true);
    expect(await storedOf(me.id)).toBe(5);

    const fresh = await uploaded(me.token, 'fresh');
    h.clock.advance(2 * MINUTE);
    await deleteUnusedUploads(h.database.db, h.clock.now());
    expect(await servedToOwner(unused, me.token)).toBe(false);
    // The picture the avatar was made from is unused too; the avatar is its own copy.
    expect(await servedToOwner(avatarSource, me.token)).toBe(false);
    for (const url of [receipt, document, avatar, fresh]) expect(await servedToOwner(url, me.token)).toBe(true);
    expect((await h.app.inject({ method: 'GET', url: avatar })).statusCode).toBe(404);
    expect(await storedOf(me.id)).toBe(4);
    // Past its grace, the fresh one goes too.
    h.clock.advance(24 * HOUR);
    await deleteUnusedUploads(h.database.db, h.clock.now());
    expect(await servedToOwner(fresh, me.token)).toBe(false);

    // Kept in use, they are never deleted, however long after (the owner signs in again: sessions last 180 days at
    // most).
    h.clock.advance(400 * 24 * HOUR);
    await deleteUnusedUploads(h.database.db, h.clock.now());
    const back = (await h.call(login, { username: me.phone, password: PASSWORD })).data.token;
    for (const url of [receipt, document, avatar]) expect(await servedToOwner(url, back)).toBe(true);
    expect(await storedOf(me.id)).toBe(3);
  });

  it("free the account's places once deleted", async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 52);
    expect(await upload(me.token, 'refused')).toEqual(BOUND);
    h.clock.advance(24 * HOUR + MINUTE);
    await deleteUnusedUploads(h.database.db, h.clock.now());
    expect(await storedOf(me.id)).toBe(0);
    expect((await upload(me.token, 'welcome-back')).ret).toBe(1);
  });

  it('past their grace, make room for the next upload even before the job has run', async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 52);
    h.clock.advance(24 * HOUR + MINUTE);
    expect((await upload(me.token, 'room-made')).ret).toBe(1);
    expect(await storedOf(me.id)).toBe(1);
  });

  it('are each deleted once by runs at the same time, in batches', async () => {
    const me = await customer(h);
    await storeEarlier(me.id, 1_200);
    h.clock.advance(24 * HOUR + MINUTE);
    const now = h.clock.now();
    const cutoff = new Date(now.getTime() - 24 * HOUR).toISOString();
    const [past] = rowsOf<{ n: number }>(
      await h.database.db.execute(
        sql`select count(*)::int as n from uploads where created_at < ${cutoff}::timestamptz`,
      ),
    );
    const runs = await Promise.all([
      deleteUnusedUploads(h.database.db, now, 100),
      deleteUnusedUploads(h.database.db, now, 100),
    ]);
    expect(await storedOf(me.id)).toBe(0);
    // Every picture past its grace here was unused (the other tests' in-use ones are newer or referred to).
    expect(runs[0] + runs[1]).toBeLessThanOrEqual(Number(past!.n));
    expect(runs[0] + runs[1]).toBeGreaterThanOrEqual(1_200);
  });

  it('are not deleted while a form is taking them: the job passes over them and deletes them once released', async () => {
    const me = await customer(h);
    const picture = await uploaded(me.token, 'being-submitted');
    h.clock.advance(24 * HOUR + MINUTE);
    const now = h.clock.now();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    const submission = h.database.db.transaction(async (tx) => {
      expect(await ownsUploads(tx, me.id, [picture])).toBe(true);
      taken();
      await held;
    });
    await isTaken;
    await deleteUnusedUploads(h.database.db, now);
    expect(await servedToOwner(picture, me.token)).toBe(true);
    release();
    await submission;
    await deleteUnusedUploads(h.database.db, now);
    expect(await servedToOwner(picture, me.token)).toBe(false);
  });
});
