// Verify my balance (Settings): the customer's leaf in the latest proof of liabilities — their balances as of the
// cut-off — the path from it to the root, and the device's own check of it against the published root ("Verified"),
// with the proof to download for any verifier. Readable offline once fetched (both calls are kept).
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  LIABILITIES_VERIFIER_PATH,
  liabilityRoots,
  myLiabilityProof,
  LIQUIDITY_INTEREST_ASSET,
  LOCKUP_INTEREST_ASSET,
  OPEN_OPTIONS_ASSET,
  unitsToDecimal,
} from '../../api-contract/liabilities.ts';
import type { LiabilityProof } from '../../api-contract/liabilities-verify.ts';
import { apiUrl, serverUrl } from '../../lib/api.ts';
import { formatDateTime, formatExact, middleEllipsis } from '../../lib/format.ts';
import { Button } from '../../ui/forms.tsx';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Ltr } from '../../ui/records.tsx';
import { downloadProof, liabilitiesState, loadProof } from './liabilities-store.ts';
import './liabilities.css';

const reload = () => void loadProof().catch(() => undefined);

export default function LiabilitiesPage() {
  const { t } = useLingui();
  const state = useSnapshot(liabilitiesState);
  useEffect(reload, []);
  const proof = state.proof as LiabilityProof | null;
  const verdict = state.verdict;
  const unavailable = verdict !== null && !verdict.ok && verdict.reason === 'crypto';
  const cutoff = proof ? formatDateTime(proof.cutoff) : '';
  const newestCutoff = state.newest ? formatDateTime(state.newest.cutoff) : '';
  // The tree's own columns, named in words; a ledger asset by its code.
  const columnNames: Record<string, string> = {
    [OPEN_OPTIONS_ASSET]: t`USDT in open options (paid if they win)`,
    [LOCKUP_INTEREST_ASSET]: t`USDT lock-up interest earned, not paid yet`,
    [LIQUIDITY_INTEREST_ASSET]: t`USDT liquidity interest earned, not added yet`,
  };
  const assetName = (asset: string) => columnNames[asset] ?? asset;

  return (
    <div className="page liabilities-page">
      <NavBar title={<Trans>Verify my balance</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[myLiabilityProof, liabilityRoots]} />
        {/* No proof holds the account yet: said as it is, with no "Try again" that cannot help before the next one. */}
        {!state.loaded && state.failure && state.refused && <Empty>{state.failure}</Empty>}
        {!state.loaded && state.failure && !state.refused && (
          <LoadFailure onRetry={reload}>{state.failure}</LoadFailure>
        )}
        {proof && (
          <>
            {/* A browser without Web Crypto (plain http) cannot check: said so, not as a failed check. */}
            <section
              className={`card liab-verdict ${!verdict || unavailable ? 'wait' : verdict.ok ? 'good' : 'bad'}`}
              aria-live="polite"
              data-verdict={!verdict ? 'checking' : verdict.ok ? 'verified' : unavailable ? 'unavailable' : 'failed'}
            >
              <strong>
                {!verdict
                  ? t`Checking…`
                  : verdict.ok
                    ? t`Verified ✓`
                    : unavailable
                      ? t`Cannot check here`
                      : t`Not verified ✗`}
              </strong>
              {verdict?.ok && (
                <span>
                  <Trans>
                    Your balances as of {cutoff} are counted in the published totals: this device checked the path to
                    the published root itself.
                  </Trans>
                </span>
              )}
              {verdict && !verdict.ok && verdict.reason === 'crypto' && (
                <span>
                  <Trans>
                    Verification needs a secure (https) connection: this browser offers Web Crypto only there.
                  </Trans>
                </span>
              )}
              {verdict && !verdict.ok && verdict.reason === 'account' && (
                <span>
                  <Trans>This proof is not of your account. Please contact customer service.</Trans>
                </span>
              )}
              {verdict && !verdict.ok && verdict.reason === 'older' && (
                <span>
                  <Trans>
                    This proof is of an older tree than the newest one published (as of {newestCutoff}). Please contact
                    customer service.
                  </Trans>
                </span>
              )}
              {verdict && !verdict.ok && !['crypto', 'account', 'older'].includes(verdict.reason) && (
                <span>
                  <Trans>This proof does not lead to the published root. Please contact customer service.</Trans>
                </span>
              )}
            </section>

            <section className="card liab-section">
              <h2>
                <Trans>Your balances in the tree</Trans>
              </h2>
              <p className="muted">
                <Trans>As of {cutoff}. Compare them with your own records.</Trans>
              </p>
              <ul className="liab-balances">
                {proof.assets.map((asset, at) => (
                  <li key={asset}>
                    <span>{assetName(asset)}</span>
                    <Ltr className="liab-amount">
                      {formatExact(unitsToDecimal(proof.leaf.sums[at]!, proof.decimals))}
                    </Ltr>
                  </li>
                ))}
              </ul>
            </section>

            <section className="card liab-section">
              <h2>
                <Trans>Your leaf</Trans>
              </h2>
              <p className="muted">
                <Trans>Its id is made from your account number and a secret salt only you are shown.</Trans>
              </p>
              <Ltr className="liab-hash liab-leaf">{proof.leaf.id}</Ltr>
              {proof.path.length === 0 ? (
                <p className="muted liab-only-leaf">
                  <Trans>The tree holds only your leaf: your leaf is the root.</Trans>
                </p>
              ) : (
                <>
                  <h2>
                    <Trans>Path to the root</Trans>
                  </h2>
                  <ol className="liab-path">
                    {proof.path.map((step, at) => (
                      <li key={at}>
                        {/* The symbol shows the side; a screen reader says it in words. */}
                        <span className="visually-hidden">
                          {step.side === 'left' ? t`Left sibling:` : t`Right sibling:`}{' '}
                        </span>
                        <Ltr className="liab-hash">
                          <span aria-hidden="true">{step.side === 'left' ? '◧ ' : '◨ '}</span>
                          {middleEllipsis(step.hash, 10, 10)}
                        </Ltr>
                      </li>
                    ))}
                  </ol>
                </>
              )}
              <h2>
                <Trans>Published root</Trans>
              </h2>
              <Ltr className="liab-hash liab-root">{state.published?.root ?? proof.root.hash}</Ltr>
              {state.published && (
                <>
                  <h2>
                    <Trans>Published totals</Trans>
                  </h2>
                  <p className="muted">
                    <Trans>Every customer's balances added up, as of {cutoff}.</Trans>
                  </p>
                  <ul className="liab-balances liab-totals">
                    {state.published.assets.map((asset, at) => (
                      <li key={asset}>
                        <span>{assetName(asset)}</span>
                        <Ltr className="liab-amount">
                          {formatExact(unitsToDecimal(state.published!.totals[at]!, state.published!.decimals))}
                        </Ltr>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </section>

            <Button variant="secondary" onClick={() => downloadProof(proof)}>
              <Trans>Download the proof</Trans>
            </Button>
            <p className="muted form-note">
              <Trans>
                Anyone can check the downloaded proof with the stand-alone verifier against the published root.
              </Trans>
            </p>
            <ul className="liab-links">
              <li>
                <a href={serverUrl(LIABILITIES_VERIFIER_PATH)} download="liabilities-verify.mjs">
                  <Trans>Download the stand-alone verifier</Trans>
                </a>
              </li>
              <li>
                <a href={apiUrl(liabilityRoots.path)} target="_blank" rel="noopener noreferrer">
                  <Trans>The published roots and totals (JSON)</Trans>
                </a>
              </li>
            </ul>
            <p className="muted form-note">
              <Trans>
                With Node.js installed, run{' '}
                <Ltr className="liab-hash">{`node liabilities-verify.mjs liabilities-proof-${proof.tree}.json ${state.published?.root ?? proof.root.hash}`}</Ltr>{' '}
                in the folder of both files: it prints "verified".
              </Trans>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
