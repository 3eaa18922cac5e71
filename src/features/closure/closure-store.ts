// Taking one's data and closing the account (api-contract/closure.ts): the export archive fetched with the session's
// token and handed to the browser as a download; closing, after which this device forgets the session (also when the
// close's answer was lost and the server says it went through).
import { assetAmountsText } from '../../api-contract/asset-amounts.ts';
import {
  closeAccount,
  closureEnding,
  EXPORT_PATH,
  pointsEndingWithAccount,
  type CloseSecret,
  type EndingBalance,
} from '../../api-contract/closure.ts';
import { pointRecords } from '../../api-contract/rewards.ts';
import { RET_FAIL, type Envelope } from '../../api-contract/envelope.ts';
import { writeOutcome } from '../../api-contract/write-outcome.ts';
import { ApiError, api, apiBlob, forgetUnanswered, newIdempotencyKey, unansweredWrite } from '../../lib/api.ts';
import { saveFile } from '../../lib/download.ts';
import { offlineData } from '../../lib/offline.ts';
import { clearSession } from '../../lib/session.ts';

/** Thrown when the export cannot be asked for: offline, or the server refused it (its text, translated). */
export class ExportRefused extends Error {}

/**
 * Fetches the archive (with the document pictures when `documents`) and hands it to the browser as
 * `account-data-<day>.zip`. Offline it throws `ExportRefused` with `offlineText` before anything is sent; a refusal
 * (an envelope rather than a file) throws it with the server's text. Resolves with the archive's size in bytes.
 */
export async function downloadExport(documents: boolean, offlineText: string): Promise<number> {
  if (!offlineData.online) throw new ExportRefused(offlineText);
  const blob = await apiBlob(EXPORT_PATH + (documents ? '?documents=1' : ''));
  if (!blob.type.startsWith('application/zip')) {
    const answer = JSON.parse(await blob.text()) as Envelope;
    throw new ExportRefused(answer.msg);
  }
  saveFile(`account-data-${new Date().toISOString().slice(0, 10)}.zip`, blob);
  return blob.size;
}

/**
 * The points closing would end with the account (pointsEndingWithAccount: above zero, below the redemption minimum),
 * as a decimal string of whole points, or null when none would; read quietly, without the loading mask (the page is
 * usable before it answers). The server's closure applies the same rule when the account closes.
 */
export async function loadPointsEndingWithAccount(): Promise<string | null> {
  const { balance, min_points } = await api(pointRecords, { cursor: '' }, { loading: false });
  return pointsEndingWithAccount(balance, min_points);
}

/**
 * What the closing page reads of closureEnding, quietly, without the loading mask: `ending`, the available amounts
 * closing would end with the account (below their asset's withdrawal minimum and not sellable), in asset order;
 * `holds`, what holds the closure now, each a sentence in the app's language, in the order the close refuses them
 * (none in an answer kept from before the server said them). Both empty when none.
 */
export async function loadClosureState(): Promise<{ ending: EndingBalance[]; holds: string[] }> {
  const { lists, holds } = await api(closureEnding, undefined, { loading: false });
  return { ending: lists, holds: holds ?? [] };
}

/**
 * Closes the account, confirmed with the password of `kind`, agreeing to leave exactly `ending` (the amounts the page
 * showed; the server refuses, writing nothing, when it finds others); then this device forgets the session. When no
 * answer comes (the connection dropped, every retry failed), the close may have gone through and ended this session:
 * the server is asked what became of its key (write-outcome, which the session the close ended may still ask), and a
 * close that went through resolves as one answered would; a refusal throws with its text (ret 0); otherwise the error
 * as it came, and the same close tapped again is sent under the same key (its stored answer is replayed to this
 * session even once ended). Throws ApiError.
 */
export async function closeTheAccount(
  kind: CloseSecret,
  secret: string,
  ending: readonly EndingBalance[],
): Promise<void> {
  const input = { secret_kind: kind, secret, amounts: assetAmountsText(ending) };
  try {
    // A close sent again after one without an answer goes under that one's key (api() keeps it).
    await api(closeAccount, input);
  } catch (error) {
    const lost = unansweredWrite(closeAccount, input);
    // Answered (a refusal, an ended login): the server did what it says.
    if (!(error instanceof ApiError) || error.ret !== undefined || !lost) throw error;
    const { key } = lost;
    const outcome = await api(
      writeOutcome,
      { path: closeAccount.path, key, sent_at: new Date(lost.sentAt).toISOString() },
      // A key of its own: the question's own lost answer is never replayed as a stale one.
      { loading: false, idempotencyKey: newIdempotencyKey(), redirectOnInvalidToken: false },
    ).catch(() => null);
    // Never received, or refused: nothing was done, and the key is given up; the same close sent again gets a new one.
    if (outcome?.state === 'not_received' || outcome?.state === 'refused') forgetUnanswered(key);
    if (outcome?.state === 'refused') throw new ApiError(outcome.msg ?? error.message, RET_FAIL);
    if (outcome?.state !== 'applied') throw error;
  }
  await clearSession();
}
