// Change the avatar: pick a picture, shrink it to 512 px JPEG here, upload it, make it the avatar.
import { useRef } from 'react';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { goBack } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { saveAvatar, savedText, useUser } from './profile-store.ts';
import { AvatarPicture } from './AvatarPicture.tsx';
import { uploadErrorText } from '../../lib/images.ts';

export default function AvatarPage() {
  const { user } = useUser();
  const picker = useRef<HTMLInputElement>(null);
  const { busy, submit: save } = useSubmit(
    async (file: File) => {
      await saveAvatar(file);
      toast(savedText());
      goBack(ROUTES.settings);
    },
    undefined,
    uploadErrorText,
  );

  const upload = async (file: File | undefined) => {
    if (!file) return;
    await save(file);
    // The same file may be chosen again after a failure.
    if (picker.current) picker.current.value = '';
  };

  return (
    <div className="page">
      <NavBar title={<Trans>Avatar</Trans>} />
      <div className="page-body avatar-page">
        <AvatarPicture className="avatar large" url={user?.userimg} size={160} />
        <input
          ref={picker}
          type="file"
          accept="image/*"
          hidden
          onChange={(event) => void upload(event.target.files?.[0])}
        />
        <Button onClick={() => picker.current?.click()} disabled={busy}>
          <Trans>Choose picture</Trans>
        </Button>
      </div>
    </div>
  );
}
