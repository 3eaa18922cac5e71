// Real pictures as a camera or an editor writes them, metadata included, built byte by byte: a JPEG (jpeg-js encodes
// the pixels, then EXIF with a GPS position, XMP, IPTC and a comment go in), a PNG, a lossless WebP and a GIF with
// their own kinds of metadata. Each carries the same telltales, which no stored picture may contain.
import { deflateSync } from 'node:zlib';
import { encode } from 'jpeg-js';
import { png, pngChunk } from '../png.ts';

/** Texts every metadata block below carries: a stored picture must contain none of them. */
export const TELLTALES = ['48.8584', 'Camera-SN-7731', 'Rue de Rivoli', 'ExifCam'];

/** The latitude 48.8584 N as EXIF writes it (three rationals: degrees, minutes, seconds). */
const LATITUDE = [
  [48, 1],
  [51, 1],
  [3024, 100],
];

/**
 * An EXIF block (TIFF structure, little-endian as phones write it): the camera's make, its serial number, the
 * orientation, the time taken and a GPS directory with the latitude 48.8584 N. `orientation` 1 is as stored.
 */
export function exifTiff(orientation: number): Buffer {
  const text = (value: string) => Buffer.from(`${value}\0`, 'latin1');
  const make = text('ExifCam');
  const serial = text('Camera-SN-7731 48.8584');
  const taken = text('2026:12:01 09:30:00');
  const place = text('Rue de Rivoli');
  // header 8, IFD0 at 8 with 6 entries (2 + 72 + 4 = 78), GPS IFD at 86 with 3 entries (2 + 36 + 4 = 42), data at 128
  const data = 128;
  const out = Buffer.alloc(data + make.length + serial.length + taken.length + place.length + 24);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  let cursor = data;
  const put = (bytes: Buffer) => {
    bytes.copy(out, cursor);
    cursor += bytes.length;
    return cursor - bytes.length;
  };
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(count, at + 4);
    if (type === 3) out.writeUInt16LE(value, at + 8);
    else out.writeUInt32LE(value, at + 8);
  };
  out.writeUInt16LE(6, 8);
  entry(10, 0x010f, 2, make.length, put(make)); // Make
  entry(22, 0x0112, 3, 1, orientation); // Orientation
  entry(34, 0x0132, 2, taken.length, put(taken)); // DateTime
  entry(46, 0x8825, 4, 1, 86); // GPS directory
  entry(58, 0xa431, 2, serial.length, put(serial)); // BodySerialNumber
  entry(70, 0x010e, 2, place.length, put(place)); // ImageDescription
  out.writeUInt32LE(0, 82);
  out.writeUInt16LE(3, 86);
  entry(88, 0x0000, 1, 4, 0x00000302); // GPSVersionID 2.3.0.0
  entry(100, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef "N"
  const rationals = Buffer.alloc(24);
  LATITUDE.forEach(([n, d], i) => {
    rationals.writeUInt32LE(n!, 8 * i);
    rationals.writeUInt32LE(d!, 8 * i + 4);
  });
  entry(112, 0x0002, 5, 3, put(rationals)); // GPSLatitude
  out.writeUInt32LE(0, 124);
  return out;
}

/** An XMP packet with the same telltales. */
const xmp = () =>
  Buffer.from(
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ' +
      'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description exif:GPSLatitude="48,51.504N" ' +
      'aux:SerialNumber="Camera-SN-7731" tiff:Make="ExifCam" photoshop:City="Rue de Rivoli"/></rdf:RDF>' +
      '</x:xmpmeta><?xpacket end="w"?>',
    'latin1',
  );

const jpegSegment = (marker: number, body: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

/** A fake ICC profile segment: kept as it is (a browser renders colours with it). */
export const ICC_SEGMENT = jpegSegment(0xe2, Buffer.from('ICC_PROFILE\0\x01\x01fake profile bytes', 'latin1'));

/** Pixels of a `width` × `height` picture in RGBA, every pixel its own colour. */
export const rgba = (width: number, height: number) =>
  Buffer.from(Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 37) % 251)));

/**
 * A JPEG as a phone writes it: JFIF, EXIF (with GPS, serial number, `orientation`), XMP, an ICC profile, IPTC in
 * Photoshop's APP13, a comment, the pixels (`width` × `height`, encoded by jpeg-js), and after the end of image a
 * second picture's bytes with the telltales (a phone's depth map or preview carries its own EXIF).
 */
export function cameraJpeg({ width = 16, height = 8, orientation = 1 } = {}): Buffer {
  const plain = encode({ data: rgba(width, height), width, height }, 90).data;
  const app0End = 4 + plain.readUInt16BE(4);
  const iptc = Buffer.concat([
    Buffer.from('Photoshop 3.0\x008BIM\x04\x04\0\0\0\0\0\x12', 'latin1'),
    Buffer.from('\x1c\x02\x5a\0\x0dRue de Rivoli', 'latin1'),
  ]);
  return Buffer.concat([
    plain.subarray(0, app0End),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(orientation)])),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), xmp()])),
    ICC_SEGMENT,
    jpegSegment(0xed, iptc),
    jpegSegment(0xfe, Buffer.from('Taken at Rue de Rivoli by ExifCam', 'latin1')),
    plain.subarray(app0End),
    Buffer.from('\xff\xd8\xff\xe1\0\x10Exif\0\0Camera-SN-7731\xff\xd9', 'latin1'),
  ]);
}

/** The markers of a JPEG's segments up to its scan, in order (0xe1 for APP1, ...). */
export function jpegMarkers(bytes: Buffer): number[] {
  const markers: number[] = [];
  for (let at = 2; bytes[at] === 0xff && bytes[at + 1] !== 0xda; at += 2 + bytes.readUInt16BE(at + 2))
    markers.push(bytes[at + 1]!);
  return markers;
}

/**
 * A PNG (`size` × `size`, RGB) with sRGB and gAMA chunks, an eXIf (GPS, `orientation`), tEXt, zTXt, iTXt (XMP) and
 * tIME.
 */
export function cameraPng({ size = 4, orientation = 1 } = {}): Buffer {
  const plain = png(size, (x, y) => [x * 40, y * 40, 200]);
  const ihdrEnd = 8 + 25;
  const srgbGama = [pngChunk('sRGB', Buffer.from([0])), pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f]))];
  return Buffer.concat([
    plain.subarray(0, ihdrEnd),
    ...srgbGama,
    pngChunk('eXIf', exifTiff(orientation)),
    pngChunk('tEXt', Buffer.from('Comment\0Taken at Rue de Rivoli', 'latin1')),
    pngChunk('zTXt', Buffer.concat([Buffer.from('Description\0\0', 'latin1'), deflateSync('Rue de Rivoli')])),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 12, 1, 9, 30, 0])),
    pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), xmp()])),
    plain.subarray(ihdrEnd, plain.length - 12),
    pngChunk('tEXt', Buffer.from('Author\0ExifCam Camera-SN-7731', 'latin1')),
    plain.subarray(plain.length - 12),
  ]);
}

/** The chunk types of a PNG, in order. */
export function pngChunks(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at < bytes.length; at += 12 + bytes.readUInt32BE(at))
    types.push(bytes.toString('latin1', at + 4, at + 8));
  return types;
}

/** A 1×1 lossless WebP (VP8L) in the simple format, as encoders commonly write the smallest one. */
const LOSSLESS_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

const riffChunk = (fourcc: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
};

/**
 * A 1×1 WebP in the extended format: VP8X (ICC, EXIF and XMP flags set), an ICC profile, the lossless image, then
 * an EXIF chunk (GPS, `orientation`) and an XMP chunk, as the format places them.
 */
export function cameraWebp({ orientation = 1 } = {}): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x20 | 0x08 | 0x04;
  const body = Buffer.concat([
    Buffer.from('WEBP', 'latin1'),
    riffChunk('VP8X', vp8x), // canvas 1 × 1: each side stored less one
    riffChunk('ICCP', Buffer.from('fake profile bytes', 'latin1')),
    LOSSLESS_1X1.subarray(12),
    riffChunk('EXIF', exifTiff(orientation)),
    riffChunk('XMP ', xmp()),
  ]);
  const head = Buffer.from('RIFF\0\0\0\0', 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** The chunks of a WebP, in order, with the VP8X flags when there is one. */
export function webpChunks(bytes: Buffer): { chunks: string[]; flags: number | null; riffSize: number } {
  const chunks: string[] = [];
  for (let at = 12; at < bytes.length; at += 8 + bytes.readUInt32LE(at + 4) + (bytes.readUInt32LE(at + 4) & 1))
    chunks.push(bytes.toString('latin1', at, at + 4));
  return { chunks, flags: chunks[0] === 'VP8X' ? bytes[20]! : null, riffSize: bytes.readUInt32LE(4) };
}

/**
 * A 2×1 animated GIF: a global colour table, the loop extension, an XMP application extension and a comment with the
 * telltales, then one frame (graphic control extension, descriptor, LZW data).
 */
export function cameraGif(): Buffer {
  const subBlocks = (data: Buffer) => {
    const parts: Buffer[] = [];
    for (let at = 0; at < data.length; at += 255) {
      const part = data.subarray(at, at + 255);
      parts.push(Buffer.from([part.length]), part);
    }
    return Buffer.concat([...parts, Buffer.from([0])]);
  };
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([2, 0, 1, 0, 0x80, 0, 0]), // 2 × 1, a global colour table of two colours
    Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
    Buffer.from('\x21\xff\x0bNETSCAPE2.0\x03\x01\0\0\0', 'latin1'),
    Buffer.from('\x21\xff\x0bXMP DataXMP', 'latin1'),
    subBlocks(xmp()),
    Buffer.from([0x21, 0xfe]),
    subBlocks(Buffer.from('Taken at Rue de Rivoli by ExifCam', 'latin1')),
    Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0]),
    Buffer.from([0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0]),
    Buffer.from([2, 2, 0x44, 0x0a, 0]), // LZW: clear, 0, 1, end
    Buffer.from([0x3b]),
  ]);
}
