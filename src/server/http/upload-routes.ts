// Picture upload (multipart, field `image`): images only, at most 5 MB and 50 megapixels, kept without their metadata
// (GPS position, camera serial number: domain/picture-metadata.ts), at most 52 (UPLOAD_MAX_COUNT) and 100 MB per
// account (domain/uploads.ts), kept in the database so every server process can serve them back at /api/uploads/:id.
// Every upload is private (identity documents, transfer receipts, the avatar): only its owner's token and a reviewer's
// console session read it; anyone else gets the same not-found envelope as for an id that never was. No cache may
// keep a picture, but the avatar's copy (its URL never changes content): the owner's browser keeps it for offline use,
// under that token only.
import type { FastifyInstance } from 'fastify';
import { UPLOAD_FIELD, uploadImage } from '../../api-contract/account.ts';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_PIXELS } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { imageSize } from 'image-size';
import { gifSize, withoutMetadata, type PictureType } from '../domain/picture-metadata.ts';
import { UPLOADS_PATH, anyUpload, keepUpload, visiblePicture } from '../domain/uploads.ts';
import { Refusal } from '../domain/refusal.ts';
import multipart from '@fastify/multipart';
import { envelope, router } from './handle.ts';
import type { Route, RouteModule } from './route-module.ts';
import { RET_FAIL } from '../../api-contract/envelope.ts';
import { requestLocale, translator } from '../i18n.ts';
import { callerOf, type SessionServices } from './rate-limits.ts';
import { consoleOperatorOf } from './console-caller.ts';
import type { CachedAnswers } from './cached-answers.ts';
import type { Services } from './context.ts';

/**
 * What the upload's multipart body may hold: the one picture and nothing else. A text field before it would be held in
 * memory while the picture is looked for (busboy's 1 MB a field, up to a thousand parts: a gigabyte a request), so a
 * field is refused as not a picture; a part after the picture is read past, never kept.
 */
const UPLOAD_LIMITS = { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 0, parts: 1 };

/** The file's own first bytes decide its type, not what the browser claims. */
function sniffImage(bytes: Uint8Array): PictureType | null {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return 'image/webp';
  return null;
}

/**
 * The width and height (pixels) a picture of type `mime` (sniffImage's) declares in its header, read by the
 * image-size library (PNG's IHDR, JPEG's frame header past the segments before it, WebP's lossy, lossless or extended
 * canvas); a GIF's by gifSize, since a browser grows a GIF's screen to a frame past its edge, which image-size does
 * not read. Null when the header does not say (the server decodes no pixels, nor would a browser). `bytes` passed
 * withoutMetadata: a GIF's blocks can be walked.
 */
function declaredSize(bytes: Buffer, mime: PictureType): { width: number; height: number } | null {
  if (mime === 'image/gif') return gifSize(bytes);
  try {
    const { width, height } = imageSize(bytes);
    return { width, height };
  } catch {
    return null;
  }
}

/**
 * The upload and the pictures, in a scope of their own: @fastify/multipart hooks every request of the instance it is
 * registered on, so only the upload's scope reads multipart bodies (any other call reads one as empty: app.ts).
 */
export const uploadRoutes: RouteModule = async ({ app, services, cache }) => {
  await app.register(async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data');
    await uploads.register(multipart, { limits: UPLOAD_LIMITS });
    uploadAndPictureRoutes(uploads, router(uploads, services, cache), services, cache);
  });
};

function uploadAndPictureRoutes(
  app: FastifyInstance,
  route: Route,
  services: SessionServices & Pick<Services, 'operatorConsole'>,
  cache: CachedAnswers,
) {
  const { db } = services;
  route(uploadImage, async (_input, { request, caller, clock }) => {
    if (!request.isMultipart()) throw new Refusal(texts.uploadNotImage.id);
    // A multipart body without a boundary makes busboy throw: a refusal, not a 500.
    const file = await request.file({ limits: UPLOAD_LIMITS }).catch(() => {
      throw new Refusal(texts.uploadNotImage.id);
    });
    if (!file || file.fieldname !== UPLOAD_FIELD) throw new Refusal(texts.uploadNotImage.id);
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (error) {
      // Over the limit is too large; a body cut short is simply not a picture.
      throw new Refusal(
        (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
          ? texts.uploadTooLarge.id
          : texts.uploadNotImage.id,
      );
    }
    if (file.file.truncated) throw new Refusal(texts.uploadTooLarge.id);
    const mime = sniffImage(bytes);
    if (!mime) throw new Refusal(texts.uploadNotImage.id);
    // What is kept: the picture without its GPS position, camera serial number and other metadata; a file whose
    // structure cannot be walked is refused whole rather than kept with part of its metadata.
    const kept = withoutMetadata(bytes, mime);
    if (!kept) throw new Refusal(texts.uploadNotImage.id);
    const size = declaredSize(kept, mime);
    if (size && size.width * size.height > UPLOAD_MAX_PIXELS)
      throw new Refusal(serverTexts.uploadTooManyPixels.id, { 0: UPLOAD_MAX_PIXELS / 1_000_000 });
    return {
      url: await db.transaction((tx) => keepUpload(tx, caller.userId, { mime, bytes: kept }, clock.now())),
    };
  });

  app.get<{ Params: { id: string } }>(`${UPLOADS_PATH}:id`, async (request, reply) => {
    // The token header, as on every call (no token: no picture).
    const viewer = await callerOf(services, cache, request);
    // Not a customer's token: a reviewer's console session reads any picture (receipts, documents).
    const reviewer = viewer ? null : await consoleOperatorOf(services, request);
    const picture =
      reviewer?.role === 'reviewer' && !reviewer.mustChangePassword
        ? await anyUpload(db, request.params.id)
        : await visiblePicture(db, request.params.id, viewer?.userId ?? null);
    reply.header('x-content-type-options', 'nosniff');
    if (!picture) {
      const t = translator(requestLocale(request.headers.lang as string | undefined));
      return reply
        .code(404)
        .header('cache-control', 'no-store')
        .send(envelope(RET_FAIL, t(texts.pictureUnavailable), null));
    }
    if (picture.isPublic) reply.header('cache-control', 'private, max-age=31536000, immutable').header('vary', 'token');
    else reply.header('cache-control', 'private, no-store');
    return reply.header('content-type', picture.mime).send(Buffer.from(picture.bytes));
  });
}
