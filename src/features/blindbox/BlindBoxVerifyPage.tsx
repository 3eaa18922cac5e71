// Verification of the blind box (our route /pages/blindbox/verify): the user's draws,
// each re-computed here in the browser with Web Crypto from its revealed server seed — the seed's
// SHA-256 must be the hash shown before the draw, and HMAC → roll → prize must give the recorded
// prize. The exact scheme is written out so anyone can check a draw by hand.
import { useEffect } from 'react';
import { useSnapshot, type Snapshot } from 'valtio';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { blindBoxDraws, type BoxDraw, type DrawCheck } from '../../api-contract/blindbox.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatDateTime } from '../../lib/format.ts';
import { hasMore } from '../../lib/paged-list.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Ltr, StatusBadge } from '../../ui/records.tsx';
import { useAmountText } from './BlindBoxParts.tsx';
import { blindBoxState, canVerify, checkSummary, isWin, loadDraws, rotate } from './blindbox-store.ts';
import './blindbox.css';

const reload = () => void loadDraws().catch(() => undefined);

export default function BlindBoxVerifyPage() {
  const { draws, checks } = useSnapshot(blindBoxState);
  useEffect(reload, []);
  const more = useSubmit(() => loadDraws({ more: true }));

  return (
    <div className="page blindbox-page">
      <NavBar title={<Trans>Verify draws</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[blindBoxDraws]} />
        {!canVerify() && (
          <p className="card box-warning" role="status">
            <Trans>
              Verification needs a secure (https) connection: this browser offers Web Crypto only there. Open the app
              over https to check your draws.
            </Trans>
          </p>
        )}
        {!draws.loaded && draws.failure && <LoadFailure onRetry={reload}>{draws.failure}</LoadFailure>}
        {draws.loaded && (
          <>
            <Summary draws={draws.lists} checks={checks} total={draws.total} />
            {draws.lists.length === 0 ? (
              <Empty>
                <Trans>No draws yet.</Trans>
              </Empty>
            ) : (
              <ul className="card flush box-draw-list">
                {draws.lists.map((draw) => (
                  <DrawRow key={draw.id} draw={draw} check={checks[draw.id]} />
                ))}
              </ul>
            )}
            {hasMore(draws) && (
              <Button variant="secondary" size="small" onClick={() => void more.submit()} disabled={more.busy}>
                <Trans>Load more</Trans>
              </Button>
            )}
          </>
        )}
        <Scheme />
      </div>
    </div>
  );
}

function Summary({
  draws,
  checks,
  total,
}: {
  draws: readonly Snapshot<BoxDraw>[];
  checks: Readonly<Record<number, DrawCheck>>;
  total: number;
}) {
  const { t } = useLingui();
  const { verified, mismatched, unrevealed } = checkSummary(draws, checks);
  const shown = draws.length;
  const rotation = useSubmit(async () => {
    await rotate();
    toast(t`Server seed revealed. A new one is committed.`);
  });
  if (!shown) return null;
  return (
    <section className={`card box-summary ${mismatched ? 'bad' : verified ? 'good' : 'wait'}`} aria-live="polite">
      <strong>
        <Plural value={shown} one={`${verified} of # draw verified`} other={`${verified} of # draws verified`} />
        {/* The tick says every draw on screen checked out: none while one waits for its seed or did not match. */}
        {verified === shown && ' ✓'}
      </strong>
      {mismatched > 0 && (
        <span className="box-summary-bad">
          <Plural value={mismatched} one="# draw does not match ✗" other="# draws do not match ✗" />
        </span>
      )}
      {unrevealed > 0 && (
        <span className="muted">
          <Plural
            value={unrevealed}
            one="# draw uses the current seed: reveal it by rotating the seed."
            other="# draws use the current seed: reveal it by rotating the seed."
          />
        </span>
      )}
      {total > shown && (
        <span className="muted">
          <Trans>Load more to check older draws.</Trans>
        </span>
      )}
      {unrevealed > 0 && (
        <Button size="small" variant="secondary" onClick={() => void rotation.submit()} disabled={rotation.busy}>
          <Trans>Rotate seed</Trans>
        </Button>
      )}
    </section>
  );
}

function DrawRow({ draw, check }: { draw: Snapshot<BoxDraw>; check: DrawCheck | undefined }) {
  const amountText = useAmountText();
  const nonce = draw.nonce;
  const roll = draw.roll;
  const prize = isWin(draw.prize_amount) ? amountText(draw.prize_amount, draw.prize_asset) : '';
  return (
    <li className="box-draw-row" data-check={check ?? 'pending'}>
      <div className="box-draw-main">
        <strong>
          <bdi>{draw.prize_name}</bdi>
        </strong>
        {prize && (
          <span className="box-draw-prize">
            <Trans>
              Prize: <bdi dir="ltr">{prize}</bdi>
            </Trans>
          </span>
        )}
        <span className="muted">
          <Trans>
            Nonce <Ltr>{nonce}</Ltr> · roll <Ltr>{roll}</Ltr>
          </Trans>
        </span>
        <time className="muted" dateTime={draw.created_at}>
          {formatDateTime(draw.created_at)}
        </time>
        {draw.server_seed && (
          <span className="box-draw-seed muted">
            <Trans>
              Server seed <Seed value={draw.server_seed} /> · client seed <Seed value={draw.client_seed} />
            </Trans>
          </span>
        )}
      </div>
      <CheckBadge check={check} />
    </li>
  );
}

// A seed is the customer's own text: given as a prop, it stays out of the translated message, so the message's
// markup parser never reads the tags a client seed may hold.
const Seed = ({ value }: { value: string }) => <Ltr className="box-hash">{value}</Ltr>;

function CheckBadge({ check }: { check: DrawCheck | undefined }) {
  if (check === 'verified')
    return (
      <StatusBadge tone="good">
        <Trans>Verified ✓</Trans>
      </StatusBadge>
    );
  if (check === 'mismatch')
    return (
      <StatusBadge tone="bad">
        <Trans>Does not match ✗</Trans>
      </StatusBadge>
    );
  if (check === 'unrevealed')
    return (
      <StatusBadge tone="wait">
        <Trans>Reveal by rotating the seed</Trans>
      </StatusBadge>
    );
  return null;
}

/** The scheme in words, precise enough to re-check a draw with any HMAC tool. */
function Scheme() {
  return (
    <details className="card box-scheme">
      <summary>
        <Trans>How a draw is decided and checked</Trans>
      </summary>
      <ol>
        <li>
          <Trans>
            Before your draws the server picks a secret server seed (64 hex characters) and shows its SHA-256 hash.
          </Trans>
        </li>
        <li>
          <Trans>
            Draw number n computes HMAC-SHA256 with the server seed (as text) as the key and <Ltr>client seed:n</Ltr> as
            the message.
          </Trans>
        </li>
        <li>
          <Trans>
            The first 13 hex digits of the result (52 bits) times 1,000,000, divided by 2^52 and rounded down, give the
            roll from 0 to 999,999.
          </Trans>
        </li>
        <li>
          <Trans>
            Walk the prize table of the draw in its order, adding the weights (parts per million): the first prize whose
            running total exceeds the roll is won.
          </Trans>
        </li>
        <li>
          <Trans>
            Rotating the seed reveals the server seed: its SHA-256 must equal the hash shown before, and every draw must
            come out the same.
          </Trans>
        </li>
      </ol>
    </details>
  );
}
