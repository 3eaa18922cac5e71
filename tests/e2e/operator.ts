// The operator command as an operator runs it, against an end-to-end server's embedded database: the command line
// (`npm run ops`) hands a command to the server holding the database through the operator socket in its data folder,
// and prints the answer. These helpers hand it over the same socket from the test process: the same command, run by
// the same server, with the same printed answer; only the command line's own start (about 1.4 s of a core each call,
// measured) is left out. The command line itself is tested by the server suite (backup,
// production-guard, uploads-private, cached-answers) and by console-system.test.ts on PostgreSQL.
import { inject } from 'vitest';
import { canonicalMobile } from '../../src/server/domain/phone-numbers.ts';
import { sendOperatorCommand, withFullFilePath } from '../../src/server/ops/socket.ts';

/**
 * The operator command against the server holding the embedded database in `dataDir`: resolves with what it printed,
 * rejects with it when it failed (the command line's non-zero exit). A file named in the command (picture, backup,
 * restore) is given by its full path, as the command line does.
 */
export const operatorOn =
  (dataDir: string) =>
  async (...args: string[]): Promise<string> => {
    const { ok, output } = await sendOperatorCommand(dataDir, withFullFilePath(args));
    if (!ok) throw Object.assign(new Error(`ops ${args.join(' ')} failed: ${output}`), { stdout: '', stderr: output });
    return `${output}\n`;
  };

/** `npm run ops -- <args>` against the run's shared server; resolves with what it printed, rejects when it fails. */
export async function operator(...args: string[]): Promise<string> {
  return operatorOn(inject('dataDir'))(...args);
}

/** The id in the first column of the listed row that mentions `text` (a mobile number: as listed, in E.164). */
export function rowId(listing: string, text: string): string {
  const shown = /^[\d\s+]+$/.test(text) ? (canonicalMobile(text) ?? text) : text;
  const row = listing.split('\n').find((line) => line.includes(shown));
  const id = row?.match(/^\s*(\d+)\s/)?.[1];
  if (!id) throw new Error(`no listed row mentions ${text}:\n${listing}`);
  return id;
}
