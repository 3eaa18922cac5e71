// Picture upload (multipart, field `image`): only real JPEG, PNG, WebP or GIF pictures of at
// most 5 MB are kept; each is served back at its URL to its owner (uploads-private.test.ts: to
// no one else) and can become its owner's avatar (a public copy of it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { dbState, refused, registerByPhone, tinyPng, uploadFile } from './helpers.ts';
import { editAvatar, userInfo } from '../../src/api-contract/account.ts';
import { cameraGif, cameraJpeg, cameraWebp } from './pictures.ts';

let h: Harness;
let me: { phone: string; token: string };
let other: { phone: string; token: string };
beforeAll(async () => {
  h = await startHarness();
  me = await registerByPhone(h);
  other = await registerByPhone(h);
});
afterAll(() => h.close());

const NOT_IMAGE = refused('Please choose a JPEG, PNG, WebP or GIF picture!');
const UPLOAD_URL = /^\/api\/uploads\/[A-Za-z0-9_-]{10,64}$/;

it('a PNG picture is kept and served back to its owner with its bytes and type', async () => {
  const png = tinyPng();
  const res = await uploadFile(h, me.token, { bytes: png, name: 'me.png', type: 'image/png' });
  expect(res).toEqual({ ret: 1, msg: 'Success', data: { url: expect.stringMatching(UPLOAD_URL) } });

  const served = await h.app.inject({ method: 'GET', url: res.data.url, headers: { token: me.token } });
  expect(served.statusCode).toBe(200);
  expect(served.headers['cache-control']).toBe('private, no-store');
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  expect(new Uint8Array(served.rawPayload)).toEqual(png);
});

// Whole pictures: a file cut after its first bytes is not one (upload-metadata.test.ts).
it.each([
  ['a GIF', cameraGif(), 'image/gif'],
  ['a JPEG', cameraJpeg(), 'image/jpeg'],
  ['a WebP', cameraWebp(), 'image/webp'],
])('%s picture is accepted and served with its own type', async (_, bytes, type) => {
  const res = await uploadFile(h, me.token, {
    bytes,
    name: 'picture.bin',
    type: 'application/octet-stream',
  });
  expect(res.ret).toBe(1);
  expect(
    (await h.app.inject({ method: 'GET', url: res.data.url, headers: { token: me.token } })).headers['content-type'],
  ).toBe(type);
});

it.each([
  ['a text file renamed .png', new TextEncoder().encode('just some notes, not a picture'), 'notes.png', 'image/png'],
  [
    'an SVG picture',
    new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    'x.svg',
    'image/svg+xml',
  ],
  [
    'an HTML page claiming to be a JPEG',
    new TextEncoder().encode('<html><body>hi</body></html>'),
    'x.jpg',
    'image/jpeg',
  ],
  ['an empty file', new Uint8Array(0), 'empty.png', 'image/png'],
])('%s is refused and nothing is kept', async (_, bytes, name, type) => {
  const before = await dbState(h);
  expect(await uploadFile(h, me.token, { bytes, name, type })).toEqual(NOT_IMAGE);
  expect(await dbState(h)).toEqual(before);
});

it('a picture sent under another field name than image is refused', async () => {
  const before = await dbState(h);
  expect(await uploadFile(h, me.token, { bytes: tinyPng(), name: 'me.png', type: 'image/png', field: 'file' })).toEqual(
    NOT_IMAGE,
  );
  expect(await dbState(h)).toEqual(before);
});

it('a body with text fields before the picture is refused, and nothing is kept', async () => {
  // Each field before the picture is held in memory while the picture is looked for (1 MB each, up to a thousand
  // parts): 6 MB of them before a tiny picture passed the 5 MB bound unseen.
  const form = new FormData();
  for (let i = 0; i < 6; i++) form.append(`note${i}`, 'x'.repeat(1024 * 1024));
  form.append('image', new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), 'me.png');
  const encoded = new Response(form);
  const before = await dbState(h);
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { lang: 'en', token: me.token, 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(response.json()).toEqual(NOT_IMAGE);
  expect(await dbState(h)).toEqual(before);
});

it('an upload that is not multipart is refused', async () => {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { lang: 'en', token: me.token, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'image=hello',
  });
  expect(response.json()).toEqual(NOT_IMAGE);
});

/** A whole PNG followed by zeros, `size` bytes in all (the zeros after its end are not kept). */
const pngOfSize = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set(tinyPng());
  return bytes;
};

it('a 2 MB picture is accepted', async () => {
  const res = await uploadFile(h, me.token, { bytes: pngOfSize(2 * 1024 * 1024), name: 'big.png', type: 'image/png' });
  expect(res).toMatchObject({ ret: 1, data: { url: expect.stringMatching(UPLOAD_URL) } });
});

it('a picture over 5 MB is refused as too large and nothing is kept', async () => {
  const before = await dbState(h);
  const res = await uploadFile(h, me.token, {
    bytes: pngOfSize(5 * 1024 * 1024 + 1),
    name: 'huge.png',
    type: 'image/png',
  });
  expect(res).toEqual(refused('The picture is too large (at most 5 MB)!'));
  expect(await dbState(h)).toEqual(before);
});

/** A picture's first bytes, declaring `width`×`height` pixels in its own format's header; the pixels are not there. */
const declaring = {
  PNG: (width: number, height: number) => {
    const bytes = Buffer.from(tinyPng());
    bytes.writeUInt32BE(width, 16);
    bytes.writeUInt32BE(height, 20);
    return bytes;
  },
  GIF: (width: number, height: number) => {
    const bytes = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0, 0, 0, 0, 0, 0, 0x3b]);
    bytes.writeUInt16LE(width, 6);
    bytes.writeUInt16LE(height, 8);
    return bytes;
  },
  // A small screen (a comment block after it) whose one frame, 1 × 1 as a frame should be, is placed far past its
  // edge: the browser grows the screen to hold it.
  'GIF frame': (width: number, height: number) => {
    const bytes = Buffer.from([
      ...[0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff],
      ...[0x21, 0xfe, 3, 0x61, 0x62, 0x63, 0],
      ...[0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0, 0x3b],
    ]);
    bytes.writeUInt16LE(width - 1, 27);
    bytes.writeUInt16LE(height - 1, 29);
    return bytes;
  },
  // A JFIF segment, then the frame's header (SOF0) with the size, as a camera writes it.
  JPEG: (width: number, height: number) => {
    const bytes = Buffer.from([
      ...[0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
      ...[0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0],
      ...[0xff, 0xd9],
    ]);
    bytes.writeUInt16BE(height, 25);
    bytes.writeUInt16BE(width, 27);
    return bytes;
  },
  // The extended format's canvas (VP8X), 24 bits a side, each less one.
  WebP: (width: number, height: number) => {
    const bytes = Buffer.from([
      ...[0x52, 0x49, 0x46, 0x46, 22, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
      ...[0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]);
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
    return bytes;
  },
};

it.each(Object.entries(declaring))(
  'a %s declaring more pixels than a browser can open (a decompression bomb) is refused; one of 7000 × 7000 is kept',
  async (_, make) => {
    // A few kilobytes of compressed pixels can unpack into gigabytes in the reviewer's browser that opens the picture.
    const before = await dbState(h);
    expect(await uploadFile(h, me.token, { bytes: make(60_000, 60_000), name: 'x.jpg', type: 'image/jpeg' })).toEqual(
      refused('The picture is too large (at most 50 megapixels)!'),
    );
    expect(await dbState(h)).toEqual(before);
    const kept = await uploadFile(h, me.token, { bytes: make(7000, 7000), name: 'x.jpg', type: 'image/jpeg' });
    expect(kept).toMatchObject({ ret: 1, data: { url: expect.stringMatching(UPLOAD_URL) } });
  },
);

it('an uploaded picture becomes the avatar, as its own copy served to its owner only', async () => {
  const { data } = await uploadFile(h, me.token, { bytes: tinyPng(), name: 'me.png', type: 'image/png' });
  const res = await h.call(editAvatar, { userimg: data.url }, { token: me.token });
  expect(res).toMatchObject({
    ret: 1,
    msg: 'Success',
    data: { userimg: expect.stringMatching(UPLOAD_URL), phone: me.phone },
  });
  expect(res.data.userimg).not.toBe(data.url);
  expect((await h.call(userInfo, {}, { token: me.token })).data.userimg).toBe(res.data.userimg);
  const avatar = await h.app.inject({ method: 'GET', url: res.data.userimg, headers: { token: me.token } });
  expect(avatar.statusCode).toBe(200);
  expect(new Uint8Array(avatar.rawPayload)).toEqual(tinyPng());
  expect((await h.app.inject({ method: 'GET', url: res.data.userimg })).statusCode).toBe(404);
});

it("another customer's picture cannot become my avatar", async () => {
  const { data } = await uploadFile(h, other.token, { bytes: tinyPng(), name: 'other.png', type: 'image/png' });
  const before = await dbState(h);
  expect(await h.call(editAvatar, { userimg: data.url }, { token: me.token })).toEqual(
    refused('Failed to upload picture, please try again later!'),
  );
  expect(await dbState(h)).toEqual(before);
});
