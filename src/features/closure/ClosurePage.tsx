// My data and closing the account: the export archive (JSON and CSV of the profile, ledger, orders, messages,
// sessions and certifications; the document pictures when ticked) any time, and closing the account, with what the law
// makes us keep and for how long, what is deleted, and when the phone and e-mail may register again — the rules of
// api-contract/closure.ts. Closing is confirmed twice: a dialog, then the login or payment password. Points too few
// to redeem end with the account: the page says how many, beside the button and in the dialog, before one confirms.
// So do amounts too small to withdraw or sell (EndingBalances.tsx): the page lists them, and the button waits for the
// customer's consent to leave exactly those, which the close request carries.
import { useEffect, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  CONTACT_REUSE_DAYS,
  RETENTION_YEARS,
  type CloseSecret,
  type EndingBalance,
} from '../../api-contract/closure.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { RET_FAIL } from '../../api-contract/envelope.ts';
import { ApiError, errorText } from '../../lib/api.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Checkbox, FieldRefusalsScope, PAY_PASSWORD_FIELD, Segmented, TextField } from '../../ui/forms.tsx';
import { ConfirmDialog } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import {
  closeTheAccount,
  downloadExport,
  ExportRefused,
  loadClosureState,
  loadPointsEndingWithAccount,
} from './closure-store.ts';
import { EndingBalanceLine, EndingBalances } from './EndingBalances.tsx';
import './closure.css';

const describe = (error: unknown) => (error instanceof ExportRefused ? error.message : errorText(error));

/** "N points will end with the account": the points below the redemption minimum that closing ends. */
function PointsEnding({ points }: { points: string }) {
  const count = Number(points);
  return (
    <p className="closure-ending">
      <Plural
        value={count}
        one="# point will end with the account. Points below the redemption minimum cannot be redeemed."
        other="# points will end with the account. Points below the redemption minimum cannot be redeemed."
      />
    </p>
  );
}

export default function ClosurePage() {
  const { t } = useLingui();
  const [documents, setDocuments] = useState(false);
  const [kind, setKind] = useState<CloseSecret>('login');
  const [secret, setSecret] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [endingPoints, setEndingPoints] = useState<string | null>(null);
  const [endingBalances, setEndingBalances] = useState<readonly EndingBalance[]>([]);
  const [holds, setHolds] = useState<readonly string[]>([]);
  const [consent, setConsent] = useState(false);

  // Read again after a refusal: what ends or holds may have changed, and the consent was to the list shown before.
  const readEndingBalances = () =>
    loadClosureState()
      .then((state) => {
        setEndingBalances(state.ending);
        setHolds(state.holds);
        setConsent(false);
      })
      .catch(() => undefined);
  // Unread (offline, a failure), the page says nothing of points; the server still ends only points below the minimum.
  // Amounts unread are sent as none: the server then refuses if it finds any, so nothing ends without consent.
  useEffect(() => {
    loadPointsEndingWithAccount()
      .then(setEndingPoints)
      .catch(() => undefined);
    void readEndingBalances();
  }, []);

  const download = useSubmit(
    async () => {
      await downloadExport(documents, t`You are offline. Taking your data needs a connection: try again once online.`);
      toast(t`Your data is downloaded.`);
    },
    undefined,
    describe,
  );
  const close = useSubmit(async () => {
    try {
      await closeTheAccount(kind, secret, endingBalances);
    } catch (error) {
      // After a refusal only: a close whose answer was lost may have ended this session, and a read would then send
      // the customer to log in (closeTheAccount has asked what became of it; tapping again sends it again).
      if (error instanceof ApiError && error.ret === RET_FAIL) void readEndingBalances();
      throw error;
    } finally {
      setConfirming(false);
    }
    toast(t`Your account is closed.`);
    navigate(ROUTES.login, { replace: true });
  });
  const consentMissing = endingBalances.length > 0 && !consent;
  // The form's own toast: gone once a refusal shows under the password.
  const ask = () => (secret.trim() ? setConfirming(true) : close.say(t`Please enter the password!`));

  return (
    <div className="page closure-page">
      <NavBar title={<Trans>My data and closing the account</Trans>} />
      <div className="page-body">
        <section className="card closure-section">
          <h2>
            <Trans>Take your data</Trans>
          </h2>
          <p>
            <Trans>
              One archive (ZIP) with your profile, balances (what you hold, and what of it would end with closing),
              ledger, orders, messages, sessions and certifications, each as a JSON file and a CSV file for
              spreadsheets. You can take it at any time, before or without closing.
            </Trans>
          </p>
          <Checkbox checked={documents} onChange={setDocuments}>
            <Trans>Include the pictures of my identity documents</Trans>
          </Checkbox>
          <Button onClick={() => void download.submit()} disabled={download.busy}>
            <Trans>Download my data</Trans>
          </Button>
        </section>

        <section className="card closure-section">
          <h2>
            <Trans>Close the account</Trans>
          </h2>
          <ul className="closure-rules">
            <li>
              <Trans>
                Every balance must be zero, frozen ones included (practice money does not count; points below the
                redemption minimum end with the account, and so do, with your consent, available amounts below the
                withdrawal minimum that cannot be sold), and nothing may be open: no option, contract order, liquidity
                redemption or lock-up, and no withdrawal or recharge under review.
              </Trans>
            </li>
            <li>
              <Trans>
                Kept for the law for {RETENTION_YEARS} years after closing, then deleted: every ledger entry, every
                order, your identity certifications with their pictures, your customer-service conversation, and the
                username, mobile number and e-mail address the account was reached by.
              </Trans>
            </li>
            <li>
              <Trans>
                Deleted at once: nickname, avatar, sessions, passkeys, two-factor, bank cards and wallets, push
                notifications, price alerts, the anti-phishing code and station messages.
              </Trans>
            </li>
            <li>
              <Trans>
                A closed account cannot sign in again. Its mobile number and e-mail address can register a new account{' '}
                {CONTACT_REUSE_DAYS} days after closing.
              </Trans>
            </li>
          </ul>
          {holds.length > 0 && (
            <div className="closure-holds" role="status">
              <p className="closure-holds-title">
                <Trans>Before the account can close:</Trans>
              </p>
              <ul>
                {holds.map((hold) => (
                  <li key={hold}>{hold}</li>
                ))}
              </ul>
            </div>
          )}
          <Segmented
            value={kind}
            onChange={(value) => {
              setKind(value);
              setSecret('');
              // The refusal was about the other password.
              close.refusals.clear();
            }}
            options={[
              { value: 'login', label: <Trans>Login password</Trans> },
              { value: 'pay', label: <Trans>Payment password</Trans> },
            ]}
          />
          {/* A wrong password is refused about the request's `secret`: said under the box it was typed in. */}
          <FieldRefusalsScope value={close.refusals}>
            {kind === 'login' ? (
              <TextField
                label={<Trans>Login password</Trans>}
                type="password"
                autoComplete="current-password"
                name="secret"
                value={secret}
                onChange={setSecret}
              />
            ) : (
              <TextField
                label={<Trans>Payment password</Trans>}
                {...PAY_PASSWORD_FIELD}
                name="secret"
                value={secret}
                onChange={setSecret}
              />
            )}
          </FieldRefusalsScope>
          {endingPoints && <PointsEnding points={endingPoints} />}
          {endingBalances.length > 0 && (
            <EndingBalances balances={endingBalances} consent={consent} onConsent={setConsent} />
          )}
          <Button variant="danger" onClick={ask} disabled={close.busy || consentMissing}>
            <Trans>Close my account</Trans>
          </Button>
        </section>
      </div>
      {confirming && (
        <ConfirmDialog
          title={<Trans>Close your account?</Trans>}
          confirm={<Trans>Close it</Trans>}
          busy={close.busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void close.submit()}
        >
          <Trans>
            This cannot be undone. You will be signed out on every device and cannot sign in to this account again.
          </Trans>
          {endingPoints && <PointsEnding points={endingPoints} />}
          {endingBalances.length > 0 && (
            <div className="closure-ending-list">
              <Trans>Ending with the account, not paid out:</Trans>
              <ul>
                {endingBalances.map((balance) => (
                  <li key={balance.asset}>
                    <EndingBalanceLine balance={balance} />
                  </li>
                ))}
              </ul>
            </div>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
