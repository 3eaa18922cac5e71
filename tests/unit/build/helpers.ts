// Small inputs for the build's plugins: a plugin's hook called as the bundler calls it, and a source tree on disk.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A hook's function, whether the plugin gives it as a function or as `{ order, handler }`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function hook(value: unknown): (...args: any[]) => any {
  if (typeof value === 'function') return value as never;
  if (value && typeof value === 'object' && 'handler' in value) return (value as { handler: never }).handler;
  throw new Error('not a hook');
}

/** A folder in the system's temporary folder holding these files (path → text). */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'coinvest-build-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
