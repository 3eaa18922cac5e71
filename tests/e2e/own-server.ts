// For the files that run a server of their own: its database folder starts as a copy of the one the run's first
// start left (global-setup.ts), so the server starts as it does on a folder it used before, without migrating and
// seeding again. A server whose clock is not the real one (CLOCK_ORIGIN, CLOCK_SPEED) seeds its own: the demo data
// is dated by the clock.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * Copies the run's seeded database folder into `work` and returns the copy, for DATA_DIR. Its server stopped cleanly
 * (global-setup.ts checks it), so it left no lock or operator socket to leave behind.
 */
export function seededDataDir(work: string): string {
  const dataDir = join(work, 'data');
  cpSync(inject('seededData'), dataDir, { recursive: true });
  return dataDir;
}
