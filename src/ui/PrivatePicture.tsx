// An uploaded picture that only its owner may see (a transfer receipt, an identity document): loaded
// with the token as a blob (lib/images usePicture), a quiet placeholder meanwhile, a text if it fails.
import { usePicture } from '../lib/images.ts';

interface PrivatePictureProps {
  /** The URL /users/upload answered: `/api/uploads/<id>`. */
  url: string;
  alt: string;
  /** Tapping the picture opens it full size (in a new tab). */
  zoomable?: boolean;
}

export function PrivatePicture({ url, alt, zoomable = false }: PrivatePictureProps) {
  const picture = usePicture(url);
  if (picture.status === 'loading')
    return <span className="private-picture-placeholder" role="img" aria-label={alt} aria-busy="true" />;
  if (picture.status === 'failed') return <span className="private-picture-unavailable">{picture.text}</span>;
  const image = <img src={picture.src} alt={alt} />;
  return zoomable ? (
    <a href={picture.src} target="_blank" rel="noreferrer">
      {image}
    </a>
  ) : (
    image
  );
}
