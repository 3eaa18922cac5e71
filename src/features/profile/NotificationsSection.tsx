// Settings → Notifications: push notifications on this device (the browser asks for
// permission only when the switch is tapped) and, once on, a switch for each kind, kept by the
// server for every device of the account. Loaded with its texts (lib/push.ts loadPushTexts) only
// when Settings opens, so Mine, which shares the profile texts, does not carry them.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react';
import { NOTICE_KINDS, type NoticeKind } from '../../api-contract/notifications.ts';
import { useSubmit } from '../../lib/form.ts';
import {
  PUSH_TEXT,
  loadKindsOff,
  pushKindText,
  pushState,
  refreshPushSubscription,
  saveKindsOff,
  turnOffPush,
  turnOnPush,
  type PushState,
} from '../../lib/push.ts';
import './notifications.css';

function Switch({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (next: boolean) => void;
}) {
  return (
    <button
      type="button"
      className="cell push-switch"
      role="switch"
      aria-checked={checked}
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="cell-label">{label}</span>
      <span className="push-toggle" aria-hidden="true" />
    </button>
  );
}

export default function NotificationsSection() {
  const { i18n } = useLingui();
  const [state, setState] = useState<PushState | null>(null);
  const [off, setOff] = useState<NoticeKind[] | null>(null);
  // One change at a time: a second tap while one is sent is dropped (useSubmit's guard), a failure toasted.
  const { busy, submit: run } = useSubmit((action: () => Promise<void>) => action());

  useEffect(() => {
    pushState()
      .then((found) => {
        setState(found);
        if (found === 'on') refreshPushSubscription().catch(() => undefined);
      })
      .catch(() => setState('unsupported'));
    loadKindsOff()
      .then(setOff)
      .catch(() => undefined);
  }, []);

  // The permission prompt must come from this tap: turnOnPush asks before anything else.
  const toggleDevice = (on: boolean) => run(async () => setState(await (on ? turnOnPush() : turnOffPush())));
  const toggleKind = (kind: NoticeKind, on: boolean) =>
    run(async () => {
      const current = off ?? [];
      setOff(await saveKindsOff(on ? current.filter((other) => other !== kind) : [...current, kind]));
    });

  return (
    <section className="card flush cells push-settings" aria-label={i18n._(PUSH_TEXT.heading)}>
      <h2 className="push-heading">{i18n._(PUSH_TEXT.heading)}</h2>
      <p className="push-note">{i18n._(PUSH_TEXT.explain)}</p>
      <Switch
        label={i18n._(PUSH_TEXT.thisDevice)}
        checked={state === 'on'}
        disabled={busy || state === null || state === 'unsupported'}
        onChange={(on) => void toggleDevice(on)}
      />
      {state === 'denied' && <p className="push-note">{i18n._(PUSH_TEXT.denied)}</p>}
      {state === 'unsupported' && <p className="push-note">{i18n._(PUSH_TEXT.unsupported)}</p>}
      {state === 'on' &&
        off &&
        NOTICE_KINDS.map((kind) => (
          <Switch
            key={kind}
            label={i18n._(pushKindText(kind))}
            checked={!off.includes(kind)}
            disabled={busy}
            onChange={(on) => void toggleKind(kind, on)}
          />
        ))}
    </section>
  );
}
