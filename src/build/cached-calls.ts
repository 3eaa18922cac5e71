import { readdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { cachedCallsOf } from '../api-contract/offline-cache.ts';
import { endpointsIn } from '../api-contract/registry.ts';

/** Each reading of the API contract gets its own tsx namespace, so a rebuild reads the files anew. */
let contractLoads = 0;

/**
 * `virtual:cached-calls`: the calls the service worker keeps (api-contract/offline-cache.ts cachedCallsOf),
 * read from each endpoint's `cache` when the code is built. The worker and the page import two short
 * lists (src/lib/cached-calls.ts) instead of the API contract, whose every schema the worker would
 * otherwise carry. The API contract is read as the server reads it (declared-endpoints.ts): every module
 * of src/api-contract, here run by tsx.
 */
export function cachedCalls(): Plugin {
  const ID = 'virtual:cached-calls';
  let contractDir = resolve('src/api-contract');
  let source: Promise<string> | null = null;
  const contractFiles = () =>
    readdirSync(contractDir).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
  const build = async () => {
    // One namespace for every module, so a module that two others import is loaded once.
    const { register } = await import('tsx/esm/api');
    const contract = register({ namespace: `cached-calls-${(contractLoads += 1)}` });
    const modules = await Promise.all(
      contractFiles().map(
        async (file) =>
          [
            file.replace(/\.tsx?$/, ''),
            (await contract.import(pathToFileURL(join(contractDir, file)).href, import.meta.url)) as Record<
              string,
              unknown
            >,
          ] as const,
      ),
    ).finally(() => contract.unregister());
    const { publicPaths, userCalls } = cachedCallsOf(
      endpointsIn(Object.fromEntries(modules)).map(({ endpoint }) => endpoint),
    );
    return `export const PUBLIC_PATHS = ${JSON.stringify(publicPaths)};\nexport const USER_CALLS = ${JSON.stringify(userCalls)};\n`;
  };
  return {
    name: 'coinvest:cached-calls',
    configResolved: (config) => void (contractDir = join(config.root, 'src/api-contract')),
    buildStart: () => void (source = null),
    watchChange: (file) => void (file.startsWith(contractDir + sep) && (source = null)),
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load(id) {
      if (id !== `\0${ID}`) return null;
      for (const file of contractFiles()) this.addWatchFile(join(contractDir, file));
      source ??= build();
      return source;
    },
  };
}
