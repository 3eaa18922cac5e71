// A document photo of the certification forms: the camera (or a picture), shrunk and uploaded as
// soon as it is chosen, with a preview of what was sent.
import { uploadErrorText } from '../../lib/images.ts';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { useSubmit } from '../../lib/form.ts';
import { CameraIcon } from '../../ui/icons.tsx';
import { uploadDocument } from './certification-store.ts';

interface DocumentPhotoFieldProps {
  label: ReactNode;
  /** The uploaded picture's URL ('' until one is uploaded). */
  value: string;
  onChange: (url: string) => void;
}

export function DocumentPhotoField({ label, value, onChange }: DocumentPhotoFieldProps) {
  const id = useId();
  const picker = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  // The preview is the chosen file itself: shown at once, and freed when replaced or left.
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const { busy, submit: upload } = useSubmit(
    async (file: File) => {
      const url = await uploadDocument(file);
      setPreview(URL.createObjectURL(file));
      onChange(url);
    },
    undefined,
    uploadErrorText,
  );

  const choose = async (file: File | undefined) => {
    if (!file) return;
    await upload(file);
    // The same file may be chosen again after a failure.
    if (picker.current) picker.current.value = '';
  };

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <button
        type="button"
        id={id}
        className={value ? 'cert-photo filled' : 'cert-photo'}
        onClick={() => picker.current?.click()}
        disabled={busy}
        aria-busy={busy}
      >
        {preview && value ? (
          <>
            <img src={preview} alt="" />
            <span className="cert-photo-change">{busy ? <Trans>Uploading…</Trans> : <Trans>Change photo</Trans>}</span>
          </>
        ) : (
          <span className="cert-photo-empty">
            <CameraIcon />
            {busy ? <Trans>Uploading…</Trans> : <Trans>Take or choose a photo</Trans>}
          </span>
        )}
      </button>
      <input
        ref={picker}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(event) => void choose(event.target.files?.[0])}
      />
    </div>
  );
}
