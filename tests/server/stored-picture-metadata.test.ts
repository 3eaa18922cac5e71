// Pictures stored before uploads were kept without their metadata still hold what the camera wrote (a customer's GPS
// position in an ID photo). `npm run ops -- pictures strip-metadata` rewrites each stored one through the upload's
// own stripping: the GPS position and the rest leave the database, the image data stays byte for byte, each picture
// rewritten is one audit entry, one the command cannot walk is named and left as it is, and a second run changes
// nothing.
import { asc, eq, gt } from 'drizzle-orm';
import { decode } from 'jpeg-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, uploadFile } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { TELLTALES, cameraJpeg, cameraPng, jpegMarkers } from './pictures.ts';
import { auditLog, uploads } from '../../src/server/db/schema.ts';
import { withoutMetadata } from '../../src/server/domain/picture-metadata.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditAfter = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const storedBytes = async (id: string) =>
  Buffer.from((await h.database.db.select().from(uploads).where(eq(uploads.id, id)))[0]!.bytes);
const hasTelltale = (bytes: Buffer) => TELLTALES.some((telltale) => bytes.toString('latin1').includes(telltale));

/** A picture kept as the upload kept it before the metadata rule: the bytes as the camera wrote them. */
async function storedTheOldWay(userId: number, id: string, mime: string, bytes: Buffer) {
  await h.database.db.insert(uploads).values({ id, userId, mime, bytes, createdAt: h.clock.now() });
  return id;
}

it('rewrites a picture stored with its GPS position without it, once, audited; what it cannot read it names', async () => {
  const owner = await customer(h);
  const photo = cameraJpeg({ width: 32, height: 16, orientation: 6 });
  const document = await storedTheOldWay(owner.id, 'oldIdPhotoWithGps01', 'image/jpeg', photo);
  const screenshot = await storedTheOldWay(owner.id, 'oldPngWithText00001', 'image/png', cameraPng());
  // A file cut short: no structure to walk to its end, so no stripping it could vouch for.
  const cut = photo.subarray(0, photo.length - 40);
  const broken = await storedTheOldWay(owner.id, 'oldCutShortJpeg0001', 'image/jpeg', cut);
  // One uploaded under the rule is clean already.
  const upload = await uploadFile(h, owner.token, { bytes: cameraJpeg(), name: 'photo', type: 'image/jpeg' });
  const clean = (upload.data as { url: string }).url.split('/').at(-1)!;
  const cleanBefore = await storedBytes(clean);
  expect(hasTelltale(await storedBytes(document))).toBe(true);

  const audited = await lastAuditId();
  const output = await opsOk(h, 'pictures', 'strip-metadata');
  expect(output).toContain('2 rewritten');
  expect(output).toContain(broken);

  const stripped = await storedBytes(document);
  expect(hasTelltale(stripped)).toBe(false);
  expect(stripped.equals(withoutMetadata(photo, 'image/jpeg')!)).toBe(true);
  // The image data is the same; the orientation stays so it shows upright, and only it.
  expect(Buffer.from(decode(stripped, { useTArray: true }).data)).toEqual(Buffer.from(decode(photo).data));
  expect(jpegMarkers(stripped).filter((marker) => marker === 0xe1)).toHaveLength(1);
  expect(hasTelltale(await storedBytes(screenshot))).toBe(false);
  expect((await storedBytes(broken)).equals(cut)).toBe(true);
  expect((await storedBytes(clean)).equals(cleanBefore)).toBe(true);
  // The picture served to its owner is the clean one.
  const served = await h.app.inject({
    method: 'GET',
    url: `/api/uploads/${document}`,
    headers: { token: owner.token },
  });
  expect(Buffer.from(served.rawPayload).equals(stripped)).toBe(true);

  const entries = await auditAfter(audited);
  expect(entries.map((entry) => entry.target).sort()).toEqual([`upload:${document}`, `upload:${screenshot}`].sort());
  expect(entries.find((entry) => entry.target === `upload:${document}`)).toMatchObject({
    operator: 'ops',
    address: 'local',
    action: 'upload.strip-metadata',
    before: { user: owner.id, bytes: photo.length },
    after: { user: owner.id, bytes: stripped.length },
  });

  // Run again: nothing left to strip, nothing written, nothing audited.
  const again = await lastAuditId();
  expect(await opsOk(h, 'pictures', 'strip-metadata')).toContain('0 rewritten');
  expect(await auditAfter(again)).toEqual([]);
  expect((await storedBytes(document)).equals(stripped)).toBe(true);
});

it('takes no other action', async () => {
  expect(await ops(h, 'pictures')).toMatchObject({ ok: false });
  expect(await ops(h, 'pictures', 'strip-metadata', 'now')).toMatchObject({ ok: false });
});
