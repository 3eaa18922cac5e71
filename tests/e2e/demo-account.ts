// The shared server's demo account, one file at a time. The end-to-end files run side by side, and
// the files that use the demo account read its balances, points and unread messages as they change
// them (a buy moves the balance by exactly its amount, a sign-in from a new device leaves a message
// that opens by itself): two at once would see each other's effects. A file that uses it takes this
// lock for its whole run; the others wait for it (a directory is made or not, atomically, across
// the worker processes). A lock whose holder has died is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

/** How long a file may wait for the others that use the demo account (they take seconds each). */
const WAIT_MS = 600_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function take(lock: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // Just made: its holder is writing its pid.
    }
    if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    if (Date.now() > deadline)
      throw new Error(`the demo account stayed taken for ${WAIT_MS / 1000} s (held by process ${holder})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Holds the shared server's demo account from before this file's first hook to after its last. */
export function demoAccountForFile(): void {
  const lock = join(inject('runDir'), 'demo-account.lock');
  beforeAll(() => take(lock), WAIT_MS + 10_000);
  afterAll(() => rmSync(lock, { recursive: true, force: true }));
}
