// The second version of the app for the files that deploy one over the first (update.test.ts,
// chunk-failure.test.ts): the same code built again with another build id. Made once per run, by
// the first file that asks, in the run's folder; a file that asks meanwhile waits for it. A file
// that changes it copies it first.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** The build id the second version shows (<html data-build>, Mine). */
export const SECOND_BUILD_ID = 'e2e-second-build';
/** How long a file's setup may wait for it: a build takes minutes when the machine is busy. */
export const SECOND_BUILD_WAIT_MS = 300_000;

/** The folder of the second build, once it is made. */
export async function secondBuild(): Promise<string> {
  const run = inject('runDir');
  const folder = join(run, 'dist-second');
  const [lock, done, failed] = ['second-build.lock', 'second-build.done', 'second-build.failed'].map((name) =>
    join(run, name),
  );
  let mine = false;
  try {
    mkdirSync(lock);
    mine = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (mine) {
    const errors = await new Promise<string | null>((resolve) => {
      let stderr = '';
      const child = spawn(
        'node_modules/.bin/vite',
        ['build', '--outDir', folder, '--emptyOutDir', '--logLevel', 'error'],
        {
          // vitest sets NODE_ENV=test; the second version must be a production build like the first.
          env: { ...process.env, NODE_ENV: 'production', BUILD_ID: SECOND_BUILD_ID },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', (error) => resolve(String(error)));
      child.on('exit', (code) => resolve(code === 0 ? null : stderr || `vite build exited with ${code}`));
    });
    writeFileSync(errors === null ? done : failed, errors ?? '');
  }
  const deadline = Date.now() + SECOND_BUILD_WAIT_MS;
  for (;;) {
    if (existsSync(done)) return folder;
    if (existsSync(failed)) throw new Error(`the second build failed: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the second build was not made within ${SECOND_BUILD_WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
