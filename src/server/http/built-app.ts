// The built PWA and operator console at `/` when WEB_ROOT holds a build (production): the first document with the
// home screen's data inline, the app's files (precompressed copies included) and the console's.
import { existsSync } from 'node:fs';
import { LOCALES } from '../../api-contract/constants.ts';
import { slidesAnswer } from './content-routes.ts';
import { serveFirstDocument } from './first-document.ts';
import { coinListAnswer } from './markets-routes.ts';
import type { RouteModule } from './route-module.ts';
import { serveConsole, servePwa } from './serving.ts';

/** Serves the build in settings.webRoot; nothing when there is none (the API alone, or `vite` serving the app). */
export const builtAppRoutes: RouteModule = async ({ app, services, cache, settings: { webRoot } }) => {
  if (!webRoot || !existsSync(webRoot)) return;
  await serveFirstDocument(app, webRoot, async () => {
    const [coins, ...slides] = await Promise.all([
      coinListAnswer(services.market, cache),
      ...LOCALES.map((locale) => slidesAnswer(services.db, cache, 'home', locale)),
    ]);
    return {
      coins: coins.lists,
      slides: Object.fromEntries(LOCALES.map((locale, nth) => [locale, slides[nth]!.lists])),
    };
  });
  await servePwa(app, webRoot);
  serveConsole(app, webRoot);
};
