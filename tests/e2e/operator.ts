// The operator command as an operator runs it, against the end-to-end server's database (through
// the server's operator socket, since the server holds the embedded database).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { canonicalMobile } from '../../src/server/domain/phone-numbers.ts';

const run = promisify(execFile);

/** `npm run ops -- <args>`; resolves with what it printed, rejects when it exits non-zero. */
export async function operator(...args: string[]): Promise<string> {
  const { stdout } = await run('node_modules/.bin/tsx', ['src/server/ops/main.ts', ...args], {
    env: { ...process.env, DATA_DIR: inject('dataDir'), DATABASE_URL: '' },
    timeout: 30_000,
  });
  return stdout;
}

/** The id in the first column of the listed row that mentions `text` (a mobile number: as listed, in E.164). */
export function rowId(listing: string, text: string): string {
  const shown = /^[\d\s+]+$/.test(text) ? (canonicalMobile(text) ?? text) : text;
  const row = listing.split('\n').find((line) => line.includes(shown));
  const id = row?.match(/^\s*(\d+)\s/)?.[1];
  if (!id) throw new Error(`no listed row mentions ${text}:\n${listing}`);
  return id;
}
