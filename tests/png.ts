import { deflateSync } from 'node:zlib';
import { pngChunk } from '../src/server/domain/picture-metadata.ts';

/**
 * A real, decodable size×size PNG: signature, IHDR, one IDAT, IEND, each chunk with its CRC.
 * `pixel` gives each pixel's bytes: three for RGB, four for RGBA (every pixel the same length).
 */
export function png(size: number, pixel: (x: number, y: number) => readonly number[]): Buffer {
  const channels = pixel(0, 0).length;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8); // 8 bits a channel, RGBA or RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(...pixel(x, y));
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** One PNG chunk (the server's writer of them, which the metadata stripping uses). */
export { pngChunk };
