import type { BuildEnvironmentOptions } from 'vite';
import { START_CHUNK, STARTUP_CHUNKS } from './chunks.ts';
import { readReach } from './reach.ts';

/**
 * How the app's code is cut into chunks (vite.config.ts `build`): the preload lists and the two groups.
 *
 * index.html preloads the start chunk. A lazily loaded page lists the chunks it imports, so a first visit fetches them
 * at once instead
 * of one after another. Only what a visit starts with keeps its list (STARTUP_CHUNKS: the tab
 * pages, login, the startup message's dialog): every list sits in the start chunk, and once the
 * service worker has precached the app (right after the first visit) the other pages' chunks
 * come from the device anyway.
 *
 * What every start needs goes in one file: one request, and one gzip stream compresses better
 * than the dozen small shared chunks the splitter would make of it.
 * (The entry module stays in the entry chunk, which must run it.) The code two or more tab
 * pages share beyond the shell (prices, balances, amounts, icons…) is one more file instead of a
 * dozen: a first visit to a tab makes 13–22 requests for scripts, not 19–27. What login needs
 * stays out of it, so login loads none of it (readReach's tabsShared, read once, when the splitter first asks).
 * Only those modules: what they import stays where the splitter puts it.
 */
export function chunking(root = process.cwd()): Pick<BuildEnvironmentOptions, 'modulePreload' | 'rolldownOptions'> {
  let tabsShared: Set<string> | undefined;
  return {
    modulePreload: {
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'html' || STARTUP_CHUNKS.test(file) ? deps : []),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Every module a start needs but the entry module (a test on the modules' file names).
            { name: START_CHUNK, tags: ['$initial'], test: (id) => !/[\\/]src[\\/]main\.tsx$|index\.html$/.test(id) },
            {
              name: 'tabs',
              test: (id) => (tabsShared ??= readReach(root).tabsShared).has(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  };
}
