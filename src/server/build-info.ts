// What this server process runs: the version of package.json and the build of the app it serves.
// The build id is the one the app shows on Mine (vite.config.ts BUILD_ID, else the build's time):
// the build writes it beside the app (src/build/build-id.ts), and BUILD_ID in the server's
// environment names it where there is no build (development: 'development').
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file beside the built app that names its build. */
export const BUILD_ID_FILE = 'build-id.txt';

export interface BuildInfo {
  version: string;
  build: string;
}

const packageFile = new URL('../../package.json', import.meta.url);

export function buildInfo(webRoot: string | null, env: NodeJS.ProcessEnv = process.env): BuildInfo {
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  return { version, build: env.BUILD_ID?.trim() || builtId(webRoot) || 'development' };
}

function builtId(webRoot: string | null): string | null {
  if (!webRoot) return null;
  try {
    return readFileSync(join(webRoot, BUILD_ID_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
