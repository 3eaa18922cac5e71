// What this server process runs: the version of package.json and the build of the app it serves.
// The build id is the one the app shows on Mine (vite.config.ts BUILD_ID, else the build's time):
// the build writes it beside the app (src/build/build-id.ts), and BUILD_ID in the server's
// environment names it where there is no build (development: 'development').
import { readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** The file beside the built app that names its build. */
export const BUILD_ID_FILE = 'build-id.txt';

export interface BuildInfo {
  version: string;
  build: string;
}

const packageFile = new URL('../../package.json', import.meta.url);

/**
 * This process's version (package.json) and build: `buildId` (BUILD_ID) when given, else the id the build wrote beside
 * the app in `webRoot`, else 'development'.
 */
export function buildInfo(webRoot: string | null, buildId: string | null): BuildInfo {
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  return { version, build: buildId || builtId(webRoot) || 'development' };
}

function builtId(webRoot: string | null): string | null {
  if (!webRoot) return null;
  try {
    return readFileSync(join(webRoot, BUILD_ID_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * What identifies a file's content without reading it: its inode, size and modification time (ms), joined. A deploy
 * that writes a new file under the same name (or renames one over it) changes at least one of them, so a server that
 * keeps something made from a file in memory makes it again when the stamp differs.
 */
export function stampOfStat(stat: Stats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/** The stamp (stampOfStat) of the regular file at `path` now; null when there is none. Raises nothing. */
export function fileStamp(path: string): string | null {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() ? stampOfStat(stat) : null;
  } catch {
    return null;
  }
}

/** The file beside the built app listing the hashes of its inline scripts (src/build/first-screens.ts). */
export const INLINE_SCRIPTS_FILE = 'inline-scripts.json';

/**
 * The content security policy's sources for the built app's inline scripts (`'sha256-…'`), so the policy allows
 * those and no other. None where there is no build, or one from before inline scripts.
 */
export function inlineScriptSources(webRoot: string | null | undefined): string[] {
  if (!webRoot) return [];
  try {
    const hashes = JSON.parse(readFileSync(join(webRoot, INLINE_SCRIPTS_FILE), 'utf8')) as unknown;
    return Array.isArray(hashes)
      ? hashes
          .filter((hash): hash is string => typeof hash === 'string' && /^sha256-[\w+/=]+$/.test(hash))
          .map((hash) => `'${hash}'`)
      : [];
  } catch {
    return [];
  }
}

/**
 * inlineScriptSources, read again whenever its file has changed: a new build copied under the running server brings
 * new inline scripts, and a policy of the old build's hashes would refuse them (the app would never start).
 */
export function currentInlineScriptSources(webRoot: string | null | undefined): () => string[] {
  let stamp: string | null | undefined;
  let sources: string[] = [];
  return () => {
    if (!webRoot) return sources;
    // No list (null): no inline script is allowed.
    const now = fileStamp(join(webRoot, INLINE_SCRIPTS_FILE));
    if (now !== stamp) {
      stamp = now;
      sources = inlineScriptSources(webRoot);
    }
    return sources;
  };
}
