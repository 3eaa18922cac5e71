// The anti-phishing code (opened from Settings): what it is for; the code when one is set, shown as
// e-mails and security notices show it, with "Change" and "Remove"; the form that sets it. With
// two-factor on, setting, changing and removing it ask for the authenticator code.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useAntiPhishing } from '../../lib/anti-phishing.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { AntiPhishingBadge } from '../../ui/AntiPhishingBadge.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { unitsFor } from '../../api-contract/constants.ts';
import { ANTI_PHISHING_MAX_LENGTH } from '../../api-contract/anti-phishing.ts';
import { phraseProblem, removeCode, saveCode } from './anti-phishing-store.ts';
import './anti-phishing.css';

export default function AntiPhishingPage() {
  const { phrase, loaded } = useAntiPhishing(true);
  const [open, setOpen] = useState<'change' | 'remove' | null>(null);

  let body = null;
  if (loaded && (!phrase || open === 'change'))
    body = <CodeForm changing={Boolean(phrase)} onDone={() => setOpen(null)} />;
  else if (phrase && open === 'remove') body = <RemoveForm onDone={() => setOpen(null)} />;
  else if (phrase)
    body = (
      <>
        <section className="card">
          <AntiPhishingBadge label={<Trans>Your anti-phishing code:</Trans>} code={phrase} />
        </section>
        <Button variant="secondary" onClick={() => setOpen('change')}>
          <Trans>Change</Trans>
        </Button>
        <Button variant="danger" onClick={() => setOpen('remove')}>
          <Trans>Remove</Trans>
        </Button>
      </>
    );

  return (
    <div className="page anti-phishing-page">
      <NavBar title={<Trans>Anti-phishing code</Trans>} />
      <div className="page-body">
        <section className="card">
          <p className="form-note">
            <Trans>
              Choose a word or a short phrase only you know. We show it at the top of every e-mail we send you and of
              every security notice in the app.
            </Trans>
          </p>
          <p className="muted form-note">
            <Trans>
              A message in our name without your code, or with another one, is not from us: do not open its links or
              answer it.
            </Trans>
          </p>
        </section>
        {body}
      </div>
    </div>
  );
}

function CodeForm({ changing, onDone }: { changing: boolean; onDone: () => void }) {
  const { t } = useLingui();
  const [phrase, setPhrase] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const { busy, submit } = useSubmit(
    async () => {
      await saveCode(phrase, needsCode, otp);
      toast(t`Your anti-phishing code is saved.`);
      onDone();
    },
    () => phraseProblem(phrase) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );
  return (
    <Form className="card anti-phishing-form" onSubmit={submit}>
      <TextField
        label={changing ? <Trans>New anti-phishing code</Trans> : <Trans>Anti-phishing code</Trans>}
        value={phrase}
        onChange={setPhrase}
        name="phrase"
        dir="auto"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={unitsFor(ANTI_PHISHING_MAX_LENGTH)}
        placeholder={t`4-20 letters or digits`}
      />
      <p className="muted form-note">
        <Trans>Letters of any language and digits, with single spaces between words. Do not use a password.</Trans>
      </p>
      {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
      <Button type="submit" disabled={busy}>
        <Trans>Save</Trans>
      </Button>
      {changing && (
        <button type="button" className="link-button form-link" onClick={onDone}>
          <Trans>Cancel</Trans>
        </button>
      )}
    </Form>
  );
}

function RemoveForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const { busy, submit } = useSubmit(
    async () => {
      await removeCode(needsCode, otp);
      toast(t`Your anti-phishing code is removed.`);
      onDone();
    },
    () => secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );
  return (
    <Form className="card anti-phishing-form" onSubmit={submit}>
      <p className="form-note">
        <Trans>Our e-mails and security notices will no longer show a code.</Trans>
      </p>
      {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
      <Button type="submit" variant="danger" disabled={busy}>
        <Trans>Remove</Trans>
      </Button>
      <button type="button" className="link-button form-link" onClick={onDone}>
        <Trans>Cancel</Trans>
      </button>
    </Form>
  );
}
