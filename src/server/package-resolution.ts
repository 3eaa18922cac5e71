// A resolve hook for the relative imports inside installed packages, registered by the server's and the operator
// command's entry points before they load anything else.
//
// Why: to choose a module's format Node's resolver looks up the package.json that scopes the file it resolved, and it
// parses that file's whole content again for every module it resolves (Node.js 24.21). drizzle-orm's package.json is
// 179 KB (an `exports` map of every entry) and date-fns's 158 KB, and the server loads about 520 and 350 of their
// modules: importing drizzle-orm/pg-core alone took 1.55 s of a core here, of which 1.47 s was that parsing (77 ms with
// this hook). A relative import inside a package is resolved by the URL standard alone (no exports map applies to it),
// so the hook does that, and reads each package's `type` once. Everything else is Node's resolver's, unchanged.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The `type` field of the package.json scoping each folder seen: bounded by the installed packages' folders. */
const scopeTypes = new Map<string, string | null>();

/**
 * The `type` of the package.json nearest above `folder` (Node's package scope: the search stops at a node_modules
 * folder, as Node's does), or null when there is none, it cannot be read, or it names no type.
 */
function scopeType(folder: string): string | null {
  const passed: string[] = [];
  let type: string | null = null;
  for (let at = folder; ;) {
    const known = scopeTypes.get(at);
    if (known !== undefined) {
      type = known;
      break;
    }
    passed.push(at);
    if (basename(at) === 'node_modules') break;
    const text = readPackageFile(join(at, 'package.json'));
    if (text !== undefined) {
      type = typeOf(text);
      break;
    }
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const at of passed) scopeTypes.set(at, type);
  return type;
}

/** The file's text; undefined when there is no such file; null when it is there but cannot be read. */
function readPackageFile(path: string): string | null | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
}

function typeOf(text: string | null): string | null {
  if (text === null) return null;
  try {
    const { type } = JSON.parse(text) as { type?: unknown };
    return typeof type === 'string' ? type : null;
  } catch {
    return null; // Node's resolver reports the broken file
  }
}

const INSTALLED = `${sep}node_modules${sep}`;

/**
 * Where `specifier`, imported by `parentUrl`, is an ES module of an installed package reached by a relative path: its
 * URL (as Node's resolver makes it: the real path's file URL). Null wherever Node's resolver must decide: a bare or
 * absolute specifier, a parent or target outside node_modules, a query, a fragment or an escape in the specifier, an
 * import with attributes, an extension other than `.js`/`.mjs`, a `.js` file not scoped by `"type": "module"` (Node
 * then tells CommonJS from an ES module by its syntax), a missing file, a folder, a path through a symbolic link.
 */
export function installedModuleUrl(specifier: string, parentUrl: string | undefined): string | null {
  if (!parentUrl?.startsWith('file:') || !(specifier.startsWith('./') || specifier.startsWith('../'))) return null;
  if (!/\.m?js$/.test(specifier) || /[?#%\\]/.test(specifier)) return null;
  const parent = fileURLToPath(parentUrl);
  if (!parent.includes(INSTALLED)) return null;
  const path = fileURLToPath(new URL(specifier, parentUrl));
  if (!path.includes(INSTALLED)) return null;
  if (!path.endsWith('.mjs') && scopeType(dirname(path)) !== 'module') return null;
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return null;
  try {
    if (realpathSync.native(path) !== path) return null;
  } catch {
    return null;
  }
  return pathToFileURL(path).href;
}

const REGISTERED = Symbol.for('coinvest.packageResolveHook');

/**
 * Registers the resolve hook (node:module registerHooks, synchronous, in this thread) once per process: a relative
 * import of an ES module inside an installed package is resolved by installedModuleUrl, every other one by Node.
 * Registered again (a second call, another copy of this module), it does nothing.
 */
export function registerPackageResolveHook(): void {
  const global = globalThis as { [REGISTERED]?: true };
  if (global[REGISTERED]) return;
  global[REGISTERED] = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (Object.keys(context.importAttributes ?? {}).length === 0) {
        const url = installedModuleUrl(specifier, context.parentURL);
        if (url) return { url, format: 'module', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}
