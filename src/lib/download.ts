// Handing a file made on the device to the browser as a download: the one way the app saves a file (CSV statements
// and trades, the account's data export, a receipt, the proof of liabilities).

/** How long a download's object URL stays valid after its click, in ms: Safari and Firefox read it after the click. */
export const DOWNLOAD_URL_LIFETIME_MS = 60_000;

/**
 * Saves `blob` as a file named `name` (the browser's download, or its save sheet on a phone). The link is added to
 * the document for its click and removed after, as Firefox clicks only links in a document, and its object URL is
 * revoked only DOWNLOAD_URL_LIFETIME_MS later, as Safari and Firefox fetch it after the click has returned (revoked at
 * once, the download fails or saves an empty file).
 */
export function saveFile(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
}
