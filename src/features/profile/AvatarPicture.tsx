// The avatar: the owner's own picture, served to no one else, so it is read with the session's token like every
// uploaded picture (lib/images usePicture) rather than by an <img src>, which cannot send one. The browser keeps it
// for offline use (the server lets it, under that token only: a long private cache). The default picture shows when
// none was chosen, while it loads and when it cannot be had.
import { usePicture } from '../../lib/images.ts';
import { DEFAULT_AVATAR } from './profile-store.ts';

interface AvatarProps {
  /** The user's `userimg`: `/api/uploads/<id>`, or '' for none. */
  url: string | null | undefined;
  className: string;
  size: number;
}

export function AvatarPicture({ url, className, size }: AvatarProps) {
  if (!url) return <img className={className} src={DEFAULT_AVATAR} alt="" width={size} height={size} />;
  return <ChosenAvatar url={url} className={className} size={size} />;
}

function ChosenAvatar({ url, className, size }: AvatarProps & { url: string }) {
  const picture = usePicture(url);
  const src = picture.status === 'ready' ? picture.src : DEFAULT_AVATAR;
  return <img className={className} src={src} alt="" width={size} height={size} data-avatar={picture.status} />;
}
