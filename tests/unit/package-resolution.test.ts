// The server's resolve hook for installed packages (src/server/package-resolution.ts) resolves each module it takes as
// Node's own resolver does: the whole module graph of the server and of the operator command, loaded in a process of
// its own once with the hook and once without, records the same URL and format for every import.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installedModuleUrl } from '../../src/server/package-resolution.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDER = fileURLToPath(new URL('../fixtures/record-resolution.ts', import.meta.url));

interface Recorded {
  /** `specifier` from `parent` → `url` and `format`, as the chain of hooks answered. */
  edges: Record<string, { url: string; format: string | null }>;
  /** How many the package hook answered itself. */
  taken: number;
}

/** Loads `entries` in a new Node process, with the package hook or without, and returns every resolution. */
function record(entries: string[], withHook: boolean): Recorded {
  const out = execFileSync(process.execPath, [RECORDER, withHook ? 'hook' : 'node', ...entries], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as Recorded;
}

describe('the resolve hook for installed packages', () => {
  it('resolves the server’s and the operator command’s modules exactly as Node does, and takes most of the packages’ own imports', () => {
    const entries = ['src/server/start.ts', 'src/server/ops/command-line.ts'];
    const node = record(entries, false);
    const hooked = record(entries, true);
    expect(node.taken).toBe(0);
    // drizzle-orm alone is about 500 relative imports inside its package.
    expect(hooked.taken).toBeGreaterThan(500);
    expect(Object.keys(hooked.edges).length).toBe(Object.keys(node.edges).length);
    expect(hooked.edges).toEqual(node.edges);
  });

  it('leaves to Node what it cannot decide alone', () => {
    const drizzle = new URL('node_modules/drizzle-orm/pg-core/index.js', `file://${ROOT}`).href;
    const own = new URL('src/server/start.ts', `file://${ROOT}`).href;
    // A relative import inside the package, of a file that is there: taken.
    expect(installedModuleUrl('./table.js', drizzle)).toBe(new URL('./table.js', drizzle).href);
    // A bare specifier, a file that is not there, a query, an escape, another extension, a parent of our own: Node's.
    expect(installedModuleUrl('drizzle-orm', drizzle)).toBeNull();
    expect(installedModuleUrl('./no-such-file.js', drizzle)).toBeNull();
    expect(installedModuleUrl('./table.js?x=1', drizzle)).toBeNull();
    expect(installedModuleUrl('./t%61ble.js', drizzle)).toBeNull();
    expect(installedModuleUrl('./table.cjs', drizzle)).toBeNull();
    expect(installedModuleUrl('./package-resolution.ts', own)).toBeNull();
    expect(installedModuleUrl('./config.ts', own)).toBeNull();
    // Out of node_modules by `..`: Node's.
    expect(installedModuleUrl('../../../src/server/start.ts', drizzle)).toBeNull();
  });
});
