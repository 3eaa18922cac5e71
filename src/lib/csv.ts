// The app's CSV downloads: the one writer lives in the API contract (api-contract/csv.ts, which the server's data
// export uses too); this module adds handing a file to the browser.
import { saveFile } from './download.ts';

export { BOM, csvFile, decimalSeparator, numberCell, textCell, timeFormats, wallClock } from '../api-contract/csv.ts';

/** Hands a CSV file to the browser as a download named `name` (lib/download.ts). */
export function saveCsvFile(name: string, text: string): void {
  saveFile(name, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
