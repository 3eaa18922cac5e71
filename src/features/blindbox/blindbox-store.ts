// The blind box: the prize table, the caller's seed pair, drawing, changing or rotating
// the seed, the recent wins, and the past draws verified here in the browser (Web Crypto).
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import {
  blindBoxDraws,
  blindBoxInfo,
  drawBlindBox,
  rotateSeed,
  setClientSeed,
  subtleCrypto,
  verifyDraw,
  CLIENT_SEED,
  type BlindBoxInfo,
  type BoxDraw,
  type DrawCheck,
  type PayWith,
  type SeedRotation,
} from '../../api-contract/blindbox.ts';
import { winNotice, type WinLine } from '../../api-contract/activities.ts';
import { texts } from '../../api-contract/texts.ts';
import { ApiError, api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { knownOffline } from '../../lib/offline.ts';
import { cursorLoader, emptyCursorList } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

/** A draw or a seed change moves money or commitments: offline it fails at once, never queued. */
const offline = () => new ApiError(i18n._(texts.offline));

export const blindBoxState = proxy({
  info: null as BlindBoxInfo | null,
  failure: null as string | null,
  wins: [] as WinLine[],
  /** The draw just made, shown in the result dialog until dismissed. */
  result: null as BoxDraw | null,
  /** The way of paying of the draw in flight. */
  drawing: null as PayWith | null,
  draws: { ...emptyCursorList<BoxDraw>(), total: 0 },
  /** Each past draw's check in this browser, by draw id. */
  checks: {} as Record<number, DrawCheck>,
});

export async function loadInfo(): Promise<void> {
  try {
    blindBoxState.info = await api(blindBoxInfo, undefined, { loading: !blindBoxState.info });
    blindBoxState.failure = null;
  } catch (error) {
    blindBoxState.failure = errorText(error);
    throw error;
  }
}

/** The recent wins of everyone (public): a failure leaves the notice empty, nothing more. */
export async function loadWins(): Promise<void> {
  blindBoxState.wins = (await api(winNotice, undefined, { loading: false })).lists;
}

/**
 * Draws once paying `pay`, at the `cost` the button showed (the server refuses the draw when the cost is another one
 * now); a draw moves money, so offline it fails at once with the app's offline text. After a refused draw the box is
 * read again, so the buttons show the costs of now.
 */
export async function drawBox(pay: PayWith, cost?: string): Promise<void> {
  if (knownOffline()) throw offline();
  blindBoxState.drawing = pay;
  try {
    const answer = await api(drawBlindBox, cost === undefined ? { pay } : { pay, cost });
    blindBoxState.result = answer.draw;
    if (blindBoxState.info) blindBoxState.info.seed = answer.seed;
  } catch (error) {
    void loadInfo().catch(() => undefined);
    throw error;
  } finally {
    blindBoxState.drawing = null;
  }
  await Promise.all([
    loadInfo().catch(() => undefined),
    refreshBalances().catch(() => undefined),
    loadWins().catch(() => undefined),
  ]);
}

export const closeResult = () => void (blindBoxState.result = null);

/** The client seed field's problem (translated), or null. */
export function clientSeedProblem(seed: string): string | null {
  return CLIENT_SEED.test(seed) ? null : i18n._(texts.clientSeedFormat);
}

function rotated(answer: SeedRotation): SeedRotation {
  if (blindBoxState.info) blindBoxState.info.seed = answer.seed;
  // The draws of the revealed seed can be checked now.
  void loadDraws().catch(() => undefined);
  return answer;
}

/** A new client seed: the current server seed is revealed and a new one committed. */
export async function changeClientSeed(seed: string): Promise<SeedRotation> {
  if (knownOffline()) throw offline();
  return rotated(await api(setClientSeed, { client_seed: seed }));
}

export async function rotate(): Promise<SeedRotation> {
  if (knownOffline()) throw offline();
  return rotated(await api(rotateSeed));
}

// ---- The past draws and their verification --------------------------------------------------

const drawPages = cursorLoader(
  () => blindBoxState.draws,
  (cursor, loading) => api(blindBoxDraws, { cursor }, { loading }),
  {
    accepted: (answer) => {
      blindBoxState.draws.total = answer.total;
      void verifyShown();
    },
  },
);
export const loadDraws = drawPages.load;

/** False where the browser withholds Web Crypto (plain http on a LAN address). */
export const canVerify = () => subtleCrypto() !== null;

/** Re-computes every draw on screen from its revealed seed; a draw whose seed is secret stays 'unrevealed'. */
export async function verifyShown(): Promise<void> {
  if (!canVerify()) return;
  const draws = [...blindBoxState.draws.lists];
  const checks = await Promise.all(draws.map((draw) => verifyDraw(draw).catch((): DrawCheck => 'mismatch')));
  draws.forEach((draw, index) => (blindBoxState.checks[draw.id] = checks[index]!));
}

export interface CheckSummary {
  verified: number;
  mismatched: number;
  unrevealed: number;
}

export function checkSummary(
  draws: readonly Pick<BoxDraw, 'id'>[],
  checks: Readonly<Record<number, DrawCheck>>,
): CheckSummary {
  const summary = { verified: 0, mismatched: 0, unrevealed: 0 };
  for (const draw of draws) {
    const check = checks[draw.id];
    if (check === 'verified') summary.verified += 1;
    else if (check === 'mismatch') summary.mismatched += 1;
    else if (check === 'unrevealed') summary.unrevealed += 1;
  }
  return summary;
}

/** True when the prize is worth something (not "thanks for playing"). */
export const isWin = (amount: string) => new Big(amount).gt(0);

// Another session must never see this one's seed, draws or result.
subscribeKey(session, 'token', () => {
  drawPages.cancel();
  Object.assign(blindBoxState, {
    info: null,
    failure: null,
    result: null,
    drawing: null,
    draws: { ...emptyCursorList<BoxDraw>(), total: 0 },
    checks: {},
  });
});
