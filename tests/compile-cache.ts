// Node's on-disk compile cache for the processes a test run starts.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The variables that give a child process Node's on-disk compile cache (the V8 code of each module, kept by its
 * content), in the folder Node's documentation names (os.tmpdir()/node-compile-cache) unless NODE_COMPILE_CACHE already
 * names another: the servers the tests start, the test runners and the operator commands load the same modules again
 * and again, run after run. Measured on 2026-12-02, the cache filled: a server's start 6.2 core-seconds against 7.4, a
 * one-file server suite 17 against 19–20, an end-to-end file with its two servers 50–51 against 53–55,
 * `npm run test:quick` 294 and 308 core-seconds (159 and 167 s) against 315 (173 s). Not for `npm run coverage`: Node's
 * documentation warns that the cache makes V8's coverage less precise. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function compileCacheEnv(): { NODE_COMPILE_CACHE: string } {
  return { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache') };
}
