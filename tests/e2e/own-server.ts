// For the files that run a server of their own: its database folder starts as a copy of the one the run's first
// start left (global-setup.ts), so the server starts as it does on a folder it used before, without migrating and
// seeding again. A server whose clock is not the real one (CLOCK_ORIGIN, CLOCK_SPEED) seeds its own: the demo data
// is dated by the clock.
import { cpSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inject } from 'vitest';

/** Not copied: the operator socket and the lock of the server that made the folder. */
const LEFT_BEHIND = new Set(['ops.sock', '.server.lock']);

/** Copies the run's seeded database folder into `work` and returns the copy, for DATA_DIR. */
export function seededDataDir(work: string): string {
  const dataDir = join(work, 'data');
  cpSync(inject('seededData'), dataDir, { recursive: true, filter: (source) => !LEFT_BEHIND.has(basename(source)) });
  return dataDir;
}
