// Pictures are shrunk in the browser before they are uploaded: small on the wire, no EXIF kept.
// Uploads are private to their owner (identity documents, receipts): shown from a blob fetched with
// the token (usePicture), since an <img src> sends none. Avatars are public: a plain <img> will do.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { UPLOAD_FIELD, uploadImage } from '../api-contract/account.ts';
import { texts } from '../api-contract/texts.ts';
import { ApiError, api, apiBlob } from './api.ts';

/** Fits the picture into max×max (never enlarging) and encodes it as JPEG. */
export async function downscaleImage(file: Blob, max: number, quality = 0.85): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, max / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const paint = (context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null) => {
      if (!context) throw new Error('no 2d canvas');
      // JPEG has no transparency: a transparent PNG would otherwise turn black.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      context.drawImage(bitmap, 0, 0, width, height);
    };
    if (typeof OffscreenCanvas !== 'undefined') {
      const canvas = new OffscreenCanvas(width, height);
      paint(canvas.getContext('2d'));
      return await canvas.convertToBlob({ type: 'image/jpeg', quality });
    }
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    paint(canvas.getContext('2d'));
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('canvas encoding failed'))),
        'image/jpeg',
        quality,
      ),
    );
  } finally {
    bitmap.close();
  }
}

/**
 * Shrinks a chosen picture to fit max×max, uploads it (multipart, field `image`) and answers
 * the URL it is served back at. A file that is no picture is refused here; a picture the browser cannot read says
 * "Reading error".
 */
export async function uploadPicture(file: File, max: number, quality = 0.85): Promise<string> {
  if (!file.type.startsWith('image/')) throw new ApiError(i18n._(texts.uploadNotImage));
  let picture: Blob;
  try {
    picture = await downscaleImage(file, max, quality);
  } catch {
    // Said to be a picture, but the browser could not read it (damaged, or a format it cannot decode).
    throw new ApiError(i18n._(texts.readingError));
  }
  const formData = new FormData();
  formData.append(UPLOAD_FIELD, picture, 'picture.jpg');
  const { url } = await api(uploadImage, undefined, { formData });
  return url;
}

/** What to say when an upload fails: the server's text as it is, anything else (a canvas failure) as the upload-failed
 * text. */
export const uploadErrorText = (error: unknown) =>
  error instanceof ApiError ? error.message : i18n._(texts.uploadFailed);

export type PictureState =
  { status: 'loading' } | { status: 'ready'; src: string } | { status: 'failed'; text: string };

/**
 * An uploaded picture that may be private: fetched with the session's token and shown from a blob
 * URL, freed when the picture changes or the component leaves. While it loads: 'loading'; when it
 * cannot be had (not the owner's, gone, offline): 'failed' with the text to show in its place.
 */
export function usePicture(url: string): PictureState {
  const [state, setState] = useState<{ url: string; picture: PictureState }>({ url, picture: { status: 'loading' } });
  useEffect(() => {
    const controller = new AbortController();
    let src: string | null = null;
    setState({ url, picture: { status: 'loading' } });
    apiBlob(url, { signal: controller.signal })
      .then((blob) => {
        if (controller.signal.aborted) return;
        // Only a picture is shown: an envelope answered with status 200 (by another host) is not one.
        if (!blob.type.startsWith('image/')) throw new Error('not a picture');
        src = URL.createObjectURL(blob);
        setState({ url, picture: { status: 'ready', src } });
      })
      .catch(() => {
        if (!controller.signal.aborted)
          setState({ url, picture: { status: 'failed', text: i18n._(texts.pictureUnavailable) } });
      });
    return () => {
      controller.abort();
      if (src) URL.revokeObjectURL(src);
    };
  }, [url]);
  // Until the effect has run for a new URL, the old URL's picture is not this one's.
  return state.url === url ? state.picture : { status: 'loading' };
}
