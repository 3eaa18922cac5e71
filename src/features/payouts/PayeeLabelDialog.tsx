// Renaming a saved payee: a bank card's label (may be left empty) or a wallet's alias, checked against the API contract
// (at most 30 characters, no markup) before it is sent. Where the money goes does not change, so nothing else is asked.
import { useState } from 'react';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { PAYEE_LABEL_MAX } from '../../api-contract/payouts.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { payeeLabelProblem, renamePayee } from './payouts-store.ts';
import { unitsFor } from '../../api-contract/constants.ts';

interface Props {
  kind: 'bank' | 'wallet';
  id: number;
  label: string;
  onClose: () => void;
}

export function PayeeLabelDialog({ kind, id, label, onClose }: Props) {
  const { t } = useLingui();
  const [typed, setTyped] = useState(label);
  const form = { kind, id: String(id), label: typed };
  const { busy, submit } = useSubmit(
    async () => {
      await renamePayee(form);
      toast(i18n._(texts.saved));
      onClose();
    },
    () => payeeLabelProblem(form),
  );
  return (
    <Dialog
      title={<Trans>Label</Trans>}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void submit()} disabled={busy}>
            <Trans>Save</Trans>
          </Button>
        </>
      }
    >
      <Form className="" onSubmit={() => submit()}>
        <TextField
          label={<Trans>Your name for this payee</Trans>}
          value={typed}
          onChange={setTyped}
          name="label"
          maxLength={unitsFor(PAYEE_LABEL_MAX)}
          autoComplete="off"
          placeholder={t`e.g. Rent, My savings`}
        />
      </Form>
    </Dialog>
  );
}
