// Taking one's data and closing the account (api-contract/closure.ts): the export archive fetched with the session's
// token and handed to the browser as a download; closing, after which this device forgets the session.
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
import type { Envelope } from '../../api-contract/envelope.ts';
import { api, apiBlob } from '../../lib/api.ts';
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
 * The available amounts closing would end with the account (closureEnding: below their asset's withdrawal minimum and
 * not sellable), in asset order, empty when none; read quietly, without the loading mask.
 */
export async function loadEndingBalances(): Promise<EndingBalance[]> {
  const { lists } = await api(closureEnding, undefined, { loading: false });
  return lists;
}

/**
 * Closes the account, confirmed with the password of `kind`, agreeing to leave exactly `ending` (the amounts the page
 * showed; the server refuses, writing nothing, when it finds others); then this device forgets the session.
 */
export async function closeTheAccount(
  kind: CloseSecret,
  secret: string,
  ending: readonly EndingBalance[],
): Promise<void> {
  await api(closeAccount, { secret_kind: kind, secret, amounts: assetAmountsText(ending) });
  await clearSession();
}
