// The app's CSV downloads: the one writer lives in the API contract (api-contract/csv.ts, which the server's data
// export uses too); this module adds handing a file to the browser.
export { BOM, csvFile, decimalSeparator, numberCell, textCell, timeFormats, wallClock } from '../api-contract/csv.ts';

/** Hands a CSV file to the browser as a download named `name`. */
export function saveCsvFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
