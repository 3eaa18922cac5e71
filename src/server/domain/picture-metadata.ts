// What an uploaded picture may keep. The app re-encodes a customer's photo before sending it, but a client of the API
// sends the file as the camera wrote it: its EXIF (GPS position, camera serial number, time taken), XMP, IPTC and
// comments would reach every reviewer who opens a receipt or a document. Every picture is kept without them, its image
// data byte for byte (nothing is decoded or re-encoded): only what a browser needs to render it stays (JPEG's JFIF,
// ICC profile and Adobe segments; PNG's colour and transparency chunks; WebP's ICC profile and animation; GIF's
// animation loop and ICC profile). The EXIF orientation is the one tag a browser applies: a photo taken with the phone
// held upright is stored sideways with orientation 6, so a picture whose orientation is not 1 keeps a new EXIF block
// holding that one tag, and shows upright to the reviewer as it did to the customer. A file whose structure cannot be
// walked to its end marker is no picture to keep (stripping it halfway could leave its metadata in).
import { crc32 } from 'node:zlib';

/** The types the upload accepts (its own sniffing of the first bytes). */
export type PictureType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

/** Raised inside this module when a picture's structure cannot be walked; answered as null by withoutMetadata. */
class Malformed extends Error {}

function malformed(): never {
  throw new Malformed('malformed picture');
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWith = (bytes: Buffer, prefix: Buffer) => bytes.subarray(0, prefix.length).equals(prefix);

/**
 * The picture `bytes` of type `mime` without its metadata (see the top of this file): a new buffer, its image data the
 * same bytes in the same order; anything after the format's end marker is dropped too. Null when the file is not a
 * well-formed picture of that type (a segment, chunk or block running past the end, no end marker): the caller refuses
 * it whole. Runs in time linear in the size, copying the file once (a 1600 × 1200 JPEG of 660 KB: 0.3 ms on an idle
 * core, 3 ms on a busy one).
 */
export function withoutMetadata(bytes: Buffer, mime: PictureType): Buffer | null {
  try {
    if (mime === 'image/jpeg') return jpegWithoutMetadata(bytes);
    if (mime === 'image/png') return pngWithoutMetadata(bytes);
    if (mime === 'image/webp') return webpWithoutMetadata(bytes);
    return gifWithoutMetadata(bytes);
  } catch (error) {
    // A read past the end of the buffer is a malformed picture too.
    if (error instanceof Malformed || error instanceof RangeError) return null;
    throw error;
  }
}

// ---- EXIF orientation -------------------------------------------------------------------------------------------

const EXIF_ID = ascii('Exif\0\0');
const ORIENTATION_TAG = 0x0112;
const TIFF_SHORT = 3;

/**
 * The orientation (1 to 8) an EXIF block declares in its first image directory, as a browser reads it: 1 (as stored)
 * when the block is unreadable or has none. `exif` is the TIFF structure, with or without the "Exif\0\0" prefix a
 * JPEG puts before it (PNG and WebP writers differ).
 */
function exifOrientation(exif: Buffer): number {
  const tiff = startsWith(exif, EXIF_ID) ? exif.subarray(EXIF_ID.length) : exif;
  if (tiff.length < 8) return 1;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return 1;
  const directory = u32(4);
  if (directory + 2 > tiff.length) return 1;
  const entries = u16(directory);
  for (let i = 0; i < entries; i++) {
    const entry = directory + 2 + 12 * i;
    if (entry + 12 > tiff.length) return 1;
    if (u16(entry) === ORIENTATION_TAG && u16(entry + 2) === TIFF_SHORT) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** A TIFF structure (big-endian) whose one directory holds the orientation tag only: 26 bytes. */
function orientationOnlyTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // the directory follows the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(ORIENTATION_TAG, 10);
  tiff.writeUInt16BE(TIFF_SHORT, 12);
  tiff.writeUInt32BE(1, 14); // one value, held in the entry itself
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next directory
  return tiff;
}

// ---- JPEG -------------------------------------------------------------------------------------------------------

const JPEG_EOI = 0xd9;
const JPEG_SOS = 0xda;
const JPEG_APP1 = 0xe1;
const JPEG_COM = 0xfe;
/** The application segments a browser renders with: the JFIF header, an ICC colour profile, Adobe's colour
 * transform. */
const JPEG_KEPT_APPS: ReadonlyMap<number, Buffer> = new Map([
  [0xe0, ascii('JFIF\0')],
  [0xe2, ascii('ICC_PROFILE\0')],
  [0xee, ascii('Adobe')],
]);

/**
 * A JPEG without its application segments other than JPEG_KEPT_APPS (EXIF and XMP in APP1, IPTC in APP13, MPF and
 * makers' data) and comments, nor anything after its end of image (a phone's extra pictures: depth maps, a second
 * frame, each with its own EXIF). Tables, frame headers and scans are copied as they are.
 */
function jpegWithoutMetadata(bytes: Buffer): Buffer {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) malformed();
  const out: Buffer[] = [bytes.subarray(0, 2)];
  let orientationRead = false;
  let at = 2;
  for (;;) {
    if (bytes[at] !== 0xff) malformed();
    while (bytes[at + 1] === 0xff) at++; // fill bytes before a marker
    const marker = bytes[at + 1];
    if (marker === undefined) malformed();
    if (marker === JPEG_EOI) {
      out.push(bytes.subarray(at, at + 2));
      return Buffer.concat(out);
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      // a marker without a length (restart, TEM)
      out.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (marker === 0x00 || marker === 0xd8) malformed();
    const length = bytes.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) malformed();
    const body = bytes.subarray(at + 4, end);
    const application = marker >= 0xe0 && marker <= 0xef;
    const keptPrefix = JPEG_KEPT_APPS.get(marker);
    if (marker === JPEG_APP1 && startsWith(body, EXIF_ID) && !orientationRead) {
      // A browser reads the first EXIF block's orientation only.
      orientationRead = true;
      const orientation = exifOrientation(body);
      if (orientation !== 1)
        out.push(jpegSegment(JPEG_APP1, Buffer.concat([EXIF_ID, orientationOnlyTiff(orientation)])));
    } else if (application ? keptPrefix !== undefined && startsWith(body, keptPrefix) : marker !== JPEG_COM) {
      out.push(bytes.subarray(at, end));
    }
    at = end;
    if (marker === JPEG_SOS) {
      // The entropy-coded data runs to the next marker: 0xff is followed by 0x00 (a stuffed byte) or a restart marker.
      let next = at;
      for (;;) {
        next = bytes.indexOf(0xff, next);
        if (next < 0 || next + 1 >= bytes.length) malformed();
        const following = bytes[next + 1]!;
        if (following === 0x00 || (following >= 0xd0 && following <= 0xd7)) next += 2;
        else break;
      }
      out.push(bytes.subarray(at, next));
      at = next;
    }
  }
}

function jpegSegment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

// ---- PNG --------------------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * The ancillary chunks kept: transparency, colour space and HDR, physical pixel size, background and palette
 * histogram, animation (APNG). The others (eXIf, tEXt, zTXt, iTXt, tIME, makers' private chunks) are dropped: a
 * decoder may ignore any ancillary chunk, so dropping one never stops a picture from showing. Critical chunks are kept.
 */
const PNG_KEPT_ANCILLARY = new Set([
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'cICP',
  'mDCV',
  'cLLI',
  'mDCv',
  'cLLi',
  'pHYs',
  'bKGD',
  'hIST',
  'acTL',
  'fcTL',
  'fdAT',
]);

/** A PNG without its metadata chunks (PNG_KEPT_ANCILLARY), the orientation kept in an eXIf chunk after IHDR. */
function pngWithoutMetadata(bytes: Buffer): Buffer {
  if (!startsWith(bytes, PNG_SIGNATURE)) malformed();
  const kept: Buffer[] = [];
  let orientation: number | null = null;
  let at = PNG_SIGNATURE.length;
  for (;;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length || !/^[A-Za-z]{4}$/.test(type)) malformed();
    if ((kept.length === 0) !== (type === 'IHDR')) malformed();
    if (type === 'eXIf') orientation ??= exifOrientation(bytes.subarray(at + 8, at + 8 + length));
    // An upper-case first letter marks a chunk a decoder needs.
    else if (type[0] === type[0]!.toUpperCase() || PNG_KEPT_ANCILLARY.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') break;
  }
  const [header, ...rest] = kept;
  const exif = orientation && orientation !== 1 ? [pngChunk('eXIf', orientationOnlyTiff(orientation))] : [];
  return Buffer.concat([PNG_SIGNATURE, header!, ...exif, ...rest]);
}

/** One PNG chunk as the PNG specification lays it out: length (4 bytes, big-endian), type, `data`, CRC-32 of type and
 * data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

// ---- WebP -------------------------------------------------------------------------------------------------------

/** The chunks of a WebP kept: the image (lossy, lossless, alpha), the extended header, ICC profile, animation. */
const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ICCP', 'ANIM', 'ANMF']);
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/**
 * A WebP without its EXIF, XMP and unknown chunks, the orientation kept in a new EXIF chunk in place of the first; the
 * extended header's EXIF and XMP flags and the RIFF size tell the truth afterwards. Bytes past the RIFF size are
 * dropped.
 */
function webpWithoutMetadata(bytes: Buffer): Buffer {
  if (!startsWith(bytes, ascii('RIFF')) || bytes.toString('latin1', 8, 12) !== 'WEBP') malformed();
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length) malformed();
  const kept: Buffer[] = [];
  let orientationRead = false;
  let extended = false;
  let exifWritten = false;
  for (let at = 12; at < riffEnd;) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1); // a chunk of odd size is followed by a padding byte
    if (end > riffEnd) malformed();
    if (at === 12) {
      if (!['VP8 ', 'VP8L', 'VP8X'].includes(fourcc) || (fourcc === 'VP8X' && size < 10)) malformed();
      extended = fourcc === 'VP8X';
    }
    if (fourcc === 'EXIF' && !orientationRead) {
      orientationRead = true;
      const orientation = exifOrientation(bytes.subarray(at + 8, at + 8 + size));
      // The simple format cannot carry EXIF: only the extended one is read for it.
      if (orientation !== 1 && extended) {
        const tiff = orientationOnlyTiff(orientation);
        const head = Buffer.from('EXIF\0\0\0\0', 'latin1');
        head.writeUInt32LE(tiff.length, 4);
        kept.push(head, tiff); // 26 bytes: no padding
        exifWritten = true;
      }
    } else if (WEBP_KEPT.has(fourcc)) kept.push(bytes.subarray(at, end));
    at = end;
  }
  if (!kept.length) malformed();
  if (extended) {
    const header = Buffer.from(kept[0]!);
    header[8] = (header[8]! & ~(VP8X_EXIF | VP8X_XMP)) | (exifWritten ? VP8X_EXIF : 0);
    kept[0] = header;
  }
  const riff = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  const out = Buffer.concat([riff, ...kept]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

// ---- GIF --------------------------------------------------------------------------------------------------------

/** Application extensions kept: the animation loop count (Netscape's and its twin) and an ICC colour profile. */
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);

/** One block of a GIF after its header: an extension (label), a frame (its image descriptor) or the trailer. */
interface GifBlock {
  kind: 'extension' | 'frame' | 'trailer';
  start: number;
  end: number;
  label?: number;
}

const colourTableBytes = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);

/**
 * The blocks of a GIF, from its first block after the header and global colour table to the trailer, each found by
 * the lengths of the blocks before it. Malformed when a block runs past the end or an unknown block starts.
 */
function* gifBlocks(bytes: Buffer): Generator<GifBlock> {
  if (bytes.length < 13 || !['GIF87a', 'GIF89a'].includes(bytes.toString('latin1', 0, 6))) malformed();
  const afterSubBlocks = (from: number) => {
    let at = from;
    while (bytes[at] !== 0) {
      if (at >= bytes.length) malformed();
      at += bytes[at]! + 1;
    }
    return at + 1;
  };
  let at = 13 + colourTableBytes(bytes[10]!);
  for (;;) {
    const introducer = bytes[at];
    if (introducer === 0x3b) {
      yield { kind: 'trailer', start: at, end: at + 1 };
      return;
    }
    let block: GifBlock;
    if (introducer === 0x21)
      block = { kind: 'extension', start: at, end: afterSubBlocks(at + 2), label: bytes[at + 1] };
    else if (introducer === 0x2c && at + 10 < bytes.length) {
      // descriptor (10 bytes), local colour table, LZW code size, data sub-blocks
      block = { kind: 'frame', start: at, end: afterSubBlocks(at + 11 + colourTableBytes(bytes[at + 9]!)) };
    } else malformed();
    yield block;
    at = block.end;
  }
}

/**
 * A GIF without its comment and plain-text extensions (text no browser shows) and application extensions but
 * GIF_KEPT_APPLICATIONS (XMP among them); frames and their graphic control extensions are copied as they are.
 */
function gifWithoutMetadata(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let headerEnd: number | null = null;
  for (const block of gifBlocks(bytes)) {
    headerEnd ??= block.start;
    const application = block.label === 0xff && bytes[block.start + 2] === 11;
    const keep =
      block.kind !== 'extension' ||
      block.label === 0xf9 ||
      (application && GIF_KEPT_APPLICATIONS.has(bytes.toString('latin1', block.start + 3, block.start + 14)));
    if (keep) out.push(bytes.subarray(block.start, block.end));
  }
  return Buffer.concat([bytes.subarray(0, headerEnd!), ...out]);
}

/**
 * A well-formed GIF's size in pixels: its logical screen, grown to hold every frame (a browser grows it for a frame
 * past its edge), each frame's place read from its image descriptor. Raises on a malformed GIF (withoutMetadata
 * answers null for it first).
 */
export function gifSize(bytes: Buffer): { width: number; height: number } {
  let width = bytes.readUInt16LE(6);
  let height = bytes.readUInt16LE(8);
  for (const { kind, start } of gifBlocks(bytes)) {
    if (kind !== 'frame') continue;
    width = Math.max(width, bytes.readUInt16LE(start + 1) + bytes.readUInt16LE(start + 5));
    height = Math.max(height, bytes.readUInt16LE(start + 3) + bytes.readUInt16LE(start + 7));
  }
  return { width, height };
}
