// Receipts on the device: an order's signed receipt from the server, the platform's published keys (cached for
// offline checks), and the check itself, made here with Web Crypto — the server's word that a receipt is valid is
// never taken. The check's time is kept for the page (and measured by its end-to-end test).
import { proxy } from 'valtio';
import {
  contractReceipt,
  optionReceipt,
  receiptKeys,
  type ReceiptKey,
  type SignedReceipt,
} from '../../api-contract/receipts.ts';
import { checkReceipt, type ReceiptCheck } from '../../api-contract/receipt-signature.ts';
import { api } from '../../lib/api.ts';
import { saveFile } from '../../lib/download.ts';

/** What the page shows of a check: running, its result, or that this browser cannot check here. */
export type CheckState = ReceiptCheck | 'checking' | 'no-crypto';

/** Which order's receipt: an option or a contract order, by id. */
export interface ReceiptOf {
  kind: 'option' | 'contract';
  id: string;
}

/** Receipts themselves live in their page's state (another customer never sees one); only the keys are kept here. */
export const receiptsState = proxy({
  /** The published keys as last read (the same for everyone: kept across sessions). */
  keys: null as ReceiptKey[] | null,
});

/** The caller's own order's signed receipt (kept for offline reading like the order). */
export function loadReceipt({ kind, id }: ReceiptOf): Promise<SignedReceipt> {
  return kind === 'option'
    ? api(optionReceipt, { id }, { loading: false })
    : api(contractReceipt, { id }, { loading: false });
}

/**
 * The published keys as the platform lists them now, read again for every check: a key revoked (or a key made
 * current) while the app stayed open counts at the next check, not at the app's next start. Where the list cannot be
 * read (offline with nothing in the service worker's cache, the server down), the list this run read last serves.
 * Rejects with the read's ApiError when there is none.
 */
async function publishedKeys(): Promise<ReceiptKey[]> {
  try {
    receiptsState.keys = (await api(receiptKeys, undefined, { loading: false })).keys;
  } catch (error) {
    if (!receiptsState.keys) throw error;
  }
  return receiptsState.keys;
}

/**
 * Checks `signed` against the published keys on this device; resolves with the result and the milliseconds the
 * signature check took (the keys' fetch left out).
 */
export async function checkOnDevice(signed: SignedReceipt): Promise<{ check: CheckState; ms: number | null }> {
  if (!globalThis.crypto?.subtle) return { check: 'no-crypto', ms: null };
  const keys = await publishedKeys();
  const started = performance.now();
  try {
    const check = await checkReceipt(signed, keys);
    return { check, ms: performance.now() - started };
  } catch {
    // Web Crypto without Ed25519 (an old browser).
    return { check: 'no-crypto', ms: null };
  }
}

/** The receipt as a file to keep or send: its JSON, indented (the check reads the values, not the layout). */
export const receiptJson = (signed: SignedReceipt) => `${JSON.stringify(signed, null, 2)}\n`;

/** The Web Share API's sheet where the browser has one (phones). */
export const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Shares the receipt's JSON through the system sheet; a dismissed sheet is not an error. */
export async function shareReceipt(signed: SignedReceipt, title: string): Promise<void> {
  try {
    await navigator.share({ title, text: receiptJson(signed) });
  } catch (error) {
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  }
}

/** Saves the receipt's JSON as `receipt-<kind>-<id>.json`. */
export function downloadReceipt(signed: SignedReceipt): void {
  saveFile(
    `receipt-${signed.receipt.kind}-${signed.receipt.order.id}.json`,
    new Blob([receiptJson(signed)], { type: 'application/json' }),
  );
}
