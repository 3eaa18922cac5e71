// Settings → Notifications: push notifications on this device (the browser asks for
// permission only when the switch is tapped) and, once on, a switch for each kind, kept by the
// server for every device of the account. Loaded with its texts (lib/push.ts loadPushTexts) only
// when Settings opens, so Mine, which shares the profile texts, does not carry them.
import { use, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react';
import { NOTICE_KINDS, type NoticeKind } from '../../api-contract/notifications.ts';
import { useSubmit } from '../../lib/form.ts';
import {
  PUSH_TEXT,
  loadKindsOff,
  pushKindText,
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

/**
 * `deviceState`: this device's push state as Settings read it on opening (pushState, 'unsupported' when it failed);
 * the section waits for it (React's use, under Settings' Suspense), so it shows at the size that state gives it.
 */
export default function NotificationsSection({ deviceState }: { deviceState: Promise<PushState> }) {
  const { i18n } = useLingui();
  const opened = use(deviceState);
  const [state, setState] = useState<PushState>(opened);
  const [off, setOff] = useState<NoticeKind[] | null>(null);
  // One change at a time: a second tap while one is sent is dropped (useSubmit's guard), a failure toasted.
  const { busy, submit: run } = useSubmit((action: () => Promise<void>) => action());

  useEffect(() => {
    if (opened === 'on') refreshPushSubscription().catch(() => undefined);
    loadKindsOff()
      .then(setOff)
      .catch(() => undefined);
  }, [opened]);

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
        disabled={busy || state === 'unsupported'}
        onChange={(on) => void toggleDevice(on)}
      />
      {state === 'denied' && <p className="push-note">{i18n._(PUSH_TEXT.denied)}</p>}
      {state === 'unsupported' && <p className="push-note">{i18n._(PUSH_TEXT.unsupported)}</p>}
      {/* A row per kind from the start, each off and still until the server's choice is in: the rows take their room
          at once, and a tap cannot send a choice made without it. */}
      {state === 'on' &&
        NOTICE_KINDS.map((kind) => (
          <Switch
            key={kind}
            label={i18n._(pushKindText(kind))}
            checked={off !== null && !off.includes(kind)}
            disabled={busy || off === null}
            onChange={(on) => void toggleKind(kind, on)}
          />
        ))}
    </section>
  );
}
