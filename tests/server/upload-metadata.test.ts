// A picture sent straight to the API (not re-encoded by the app) is kept without its metadata: a receipt or an
// identity document photographed by a phone carries the customer's GPS position, the camera's serial number and the
// time taken, which every reviewer who opens it would receive. What comes back from the server is the same image, its
// pixels byte for byte, with only what a browser needs to render it (and the EXIF orientation, so it stays upright).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { imageSize } from 'image-size';
import { decode } from 'jpeg-js';
import { startHarness, type Harness } from './harness.ts';
import { dbState, refused, registerByPhone, uploadFile } from './helpers.ts';
import {
  ICC_SEGMENT,
  TELLTALES,
  cameraGif,
  cameraJpeg,
  cameraPng,
  cameraWebp,
  jpegMarkers,
  pngChunks,
  webpChunks,
} from './pictures.ts';

let h: Harness;
let me: { phone: string; token: string };
beforeAll(async () => {
  h = await startHarness();
  me = await registerByPhone(h);
});
afterAll(() => h.close());

const NOT_IMAGE = refused('Please choose a JPEG, PNG, WebP or GIF picture!');

/** Uploads `bytes` as the customer would from another client than the app; answers the picture served back. */
async function storedCopy(bytes: Buffer, type: string): Promise<Buffer> {
  const res = await uploadFile(h, me.token, { bytes, name: 'photo', type });
  expect(res).toMatchObject({ ret: 1, data: { url: expect.any(String) } });
  const served = await h.app.inject({ method: 'GET', url: res.data.url, headers: { token: me.token } });
  expect(served.statusCode).toBe(200);
  return Buffer.from(served.rawPayload);
}

function expectNoTelltale(stored: Buffer) {
  const text = stored.toString('latin1');
  for (const telltale of TELLTALES) expect(text).not.toContain(telltale);
}

/** The bytes of a PNG's chunks of `type`, joined (the image data of IDAT). */
const pngData = (bytes: Buffer, type: string) => {
  const parts: Buffer[] = [];
  for (let at = 8; at < bytes.length; at += 12 + bytes.readUInt32BE(at))
    if (bytes.toString('latin1', at + 4, at + 8) === type)
      parts.push(bytes.subarray(at, at + 12 + bytes.readUInt32BE(at)));
  return Buffer.concat(parts);
};

it('a JPEG with a GPS position is kept without EXIF, XMP, IPTC or comments, its pixels the same', async () => {
  const original = cameraJpeg({ width: 40, height: 24 });
  const stored = await storedCopy(original, 'image/jpeg');

  expectNoTelltale(stored);
  // JFIF and the ICC profile stay; no APP1 (EXIF, XMP), APP13 (IPTC) or comment is left.
  expect(jpegMarkers(stored).filter((marker) => marker >= 0xe0)).toEqual([0xe0, 0xe2]);
  expect(stored.includes(ICC_SEGMENT)).toBe(true);
  expect(stored.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9])); // nothing after the end of image
  const before = decode(original, { useTArray: true, tolerantDecoding: false });
  const after = decode(stored, { useTArray: true, tolerantDecoding: false });
  expect([after.width, after.height]).toEqual([40, 24]);
  expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
  expect(imageSize(stored)).toEqual({ ...imageSize(original), orientation: undefined });
});

it('a JPEG photographed sideways keeps its orientation, and only it, so it shows upright', async () => {
  const stored = await storedCopy(cameraJpeg({ orientation: 6 }), 'image/jpeg');
  expectNoTelltale(stored);
  expect(imageSize(stored)).toEqual({ width: 16, height: 8, orientation: 6, type: 'jpg' });
  expect(jpegMarkers(stored).filter((marker) => marker >= 0xe0)).toEqual([0xe0, 0xe1, 0xe2]);
});

it('a PNG is kept without eXIf, tEXt, iTXt or tIME, its colour chunks and image data the same', async () => {
  const original = cameraPng();
  const stored = await storedCopy(original, 'image/png');
  expectNoTelltale(stored);
  expect(pngChunks(stored)).toEqual(['IHDR', 'sRGB', 'gAMA', 'IDAT', 'IEND']);
  expect(pngData(stored, 'IDAT')).toEqual(pngData(original, 'IDAT'));
  expect(imageSize(stored)).toEqual({ ...imageSize(original), orientation: undefined });
});

it('a PNG photographed upside down keeps an eXIf holding its orientation only', async () => {
  const stored = await storedCopy(cameraPng({ orientation: 3 }), 'image/png');
  expectNoTelltale(stored);
  expect(pngChunks(stored)).toEqual(['IHDR', 'eXIf', 'sRGB', 'gAMA', 'IDAT', 'IEND']);
  expect(imageSize(stored)).toEqual({ width: 4, height: 4, orientation: 3, type: 'png' });
  expect(pngData(stored, 'eXIf').subarray(8, -4)).toEqual(
    Buffer.from('4d4d002a00000008000101120003000000010003000000000000', 'hex'),
  );
});

it('a WebP is kept without its EXIF and XMP chunks; its header flags and RIFF size say so', async () => {
  const original = cameraWebp();
  const stored = await storedCopy(original, 'image/webp');
  expectNoTelltale(stored);
  expect(webpChunks(stored)).toEqual({ chunks: ['VP8X', 'ICCP', 'VP8L'], flags: 0x20, riffSize: stored.length - 8 });
  // the lossless image's chunk, last in both
  expect(stored.subarray(-22)).toEqual(original.subarray(original.indexOf('VP8L'), original.indexOf('VP8L') + 22));
  expect(imageSize(stored)).toEqual(imageSize(original));
});

it('a sideways WebP keeps an EXIF chunk holding its orientation only, flagged in its header', async () => {
  const stored = await storedCopy(cameraWebp({ orientation: 8 }), 'image/webp');
  expectNoTelltale(stored);
  expect(webpChunks(stored)).toEqual({
    chunks: ['VP8X', 'ICCP', 'VP8L', 'EXIF'],
    flags: 0x28,
    riffSize: stored.length - 8,
  });
});

it('a GIF is kept without its comment and XMP, its loop and frame the same', async () => {
  const original = cameraGif();
  const stored = await storedCopy(original, 'image/gif');
  expectNoTelltale(stored);
  expect(stored.toString('latin1')).not.toContain('XMP');
  expect(stored.toString('latin1')).toContain('NETSCAPE2.0');
  expect(stored.subarray(-24)).toEqual(original.subarray(-24)); // graphic control, descriptor, data, trailer
  expect(imageSize(stored)).toEqual(imageSize(original));
});

const cut = (bytes: Buffer, end: number) => bytes.subarray(0, end);
const riffSized = (bytes: Buffer, size: number) => {
  const copy = Buffer.from(bytes);
  copy.writeUInt32LE(size, 4);
  return copy;
};

it.each([
  ['a JPEG cut inside its EXIF', cut(cameraJpeg(), 100), 'image/jpeg'],
  [
    'a JPEG cut inside its image data',
    cut(cameraJpeg(), cameraJpeg().indexOf(Buffer.from([0xff, 0xd9])) - 4),
    'image/jpeg',
  ],
  ['a PNG without its end chunk', cut(cameraPng(), cameraPng().length - 12), 'image/png'],
  ['a PNG whose chunk runs past the end', cut(cameraPng(), 60), 'image/png'],
  ['a WebP whose RIFF size runs past the end', riffSized(cameraWebp(), cameraWebp().length), 'image/webp'],
  ['a WebP with no image chunk', riffSized(cut(cameraWebp(), 12), 4), 'image/webp'],
  ['a GIF cut inside its comment', cut(cameraGif(), cameraGif().indexOf('Taken') + 5), 'image/gif'],
])('%s is refused as not a picture, and nothing is kept', async (_, bytes, type) => {
  const before = await dbState(h);
  expect(await uploadFile(h, me.token, { bytes, name: 'photo', type })).toEqual(NOT_IMAGE);
  expect(await dbState(h)).toEqual(before);
});
