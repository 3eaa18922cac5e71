// The lint's check against import circles (`npm run lint` runs it after ESLint): no module reaches itself again through
// its imports. Every import counts: one of values, one of types only (`import type`, `export type … from`,
// `typeof import(…)`), a re-export, a side-effect import, a dynamic import(). A circle through a type import still ties
// its modules together (none can be read, moved or tested without the others); import-x/no-cycle skips type imports
// with no option to count them. The graph is madge's: TypeScript's parser finds the imports of .ts/.tsx files, the
// project's tsconfig.json resolves them, and packages (node_modules) are not followed.
// Run alone: `node tests/import-cycles.ts` (from the repository's root); it exits 1 when it finds a circle.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folders whose scripts are read; the scripts at the root (vite.config.ts, eslint.config.js…) are read too. */
const FOLDERS = ['src', 'sw', 'tests'];
/** The files followed: scripts, not styles, JSON or assets (none of those imports a script back). */
const SCRIPT_EXTENSIONS = ['ts', 'tsx', 'js', 'mjs'];
const SCRIPT = new RegExp(`\\.(?:${SCRIPT_EXTENSIONS.join('|')})$`);

/** What madge's detectives skip when asked: nothing here. Both defaults are already false; they are stated. */
const COUNT_EVERY_IMPORT = { skipTypeImports: false, skipAsyncImports: false };

/** The part of madge's API (madge 8, a CommonJS package without type declarations) used here. */
type Madge = (
  paths: string[],
  config: {
    baseDir: string;
    fileExtensions: string[];
    tsConfig: string;
    detectiveOptions: Record<'ts' | 'tsx' | 'es6', typeof COUNT_EVERY_IMPORT>;
    dependencyFilter: (path: string) => boolean;
  },
) => Promise<{ obj(): Record<string, string[]>; circular(): string[][]; warnings(): { skipped: string[] } }>;
const madge = createRequire(import.meta.url)('madge') as Madge;

/** What the check finds in a tree. */
export interface ImportCycles {
  /** Each circle as its modules in import order (paths relative to the root); the last imports the first. */
  cycles: string[][];
  /** Relative specifiers ('./…', '../…') that resolve to no file: their imports could not be followed. */
  unresolved: string[];
  /** How many modules were read. */
  modules: number;
}

/**
 * Finds the import circles among the scripts of `root`: those under src/, sw/ and tests/ (when present) and those at
 * the root itself, with the imports resolved by `root`/tsconfig.json.
 * @param root an absolute path, the repository's root (or a tree laid out like it)
 * @throws {Error} when madge cannot read the tsconfig.json or a script
 */
export async function importCycles(root: string): Promise<ImportCycles> {
  const atRoot = readdirSync(root, { withFileTypes: true }).filter(
    (entry) => entry.isFile() && SCRIPT.test(entry.name),
  );
  const paths = [
    ...FOLDERS.map((folder) => join(root, folder)).filter((folder) => existsSync(folder)),
    ...atRoot.map((entry) => join(root, entry.name)),
  ];
  const graph = await madge(paths, {
    baseDir: root,
    fileExtensions: SCRIPT_EXTENSIONS,
    tsConfig: join(root, 'tsconfig.json'),
    detectiveOptions: { ts: COUNT_EVERY_IMPORT, tsx: COUNT_EVERY_IMPORT, es6: COUNT_EVERY_IMPORT },
    dependencyFilter: (path) => SCRIPT.test(path),
  });
  return {
    cycles: graph.circular(),
    unresolved: graph.warnings().skipped.filter((specifier) => specifier.startsWith('.')),
    modules: Object.keys(graph.obj()).length,
  };
}

/** A circle as it is printed: `a → b → … → a`. */
export const shownCycle = (cycle: string[]) => [...cycle, cycle[0]].join(' → ');

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { cycles, unresolved } = await importCycles(process.cwd());
  for (const cycle of cycles) console.error(`Import circle (type imports count): ${shownCycle(cycle)}`);
  for (const specifier of unresolved) console.error(`Import resolves to no file, not followed: ${specifier}`);
  if (cycles.length > 0 || unresolved.length > 0) process.exit(1);
}
