// Public content: system config by act, and slides by position, in the request's language (else
// English); cached in memory per language.
import { config, slides, type SLIDE_POSITIONS } from '../../api-contract/content.ts';
import type { Locale } from '../../api-contract/constants.ts';
import type { Executor } from '../db/connection.ts';
import type { CachedAnswers } from './cached-answers.ts';
import { activeSlidesIn, configEntriesIn } from '../domain/content-languages.ts';
import type { RouteModule } from './route-module.ts';

type SlidePosition = (typeof SLIDE_POSITIONS)[number];

export const contentRoutes: RouteModule = ({ route }) => {
  route(config, (input, { db, cache, locale }) =>
    cache.config.read(`${input.act}:${locale}`, async () => {
      const rows = await configEntriesIn(db, input.act, locale);
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }),
  );

  route(slides, (input, { db, cache, locale }) => slidesAnswer(db, cache, input.position, locale));
};

/** The slides' answer in `locale`, cached between changes: the call's, and Home's in a document's first screens. */
export const slidesAnswer = (db: Executor, cache: CachedAnswers, position: SlidePosition, locale: Locale) =>
  cache.slides.read(`${position}:${locale}`, async () => {
    const rows = await activeSlidesIn(db, position, locale);
    const lists = rows.map(({ id, title, image, link }) => ({ id, title, image, link }));
    return { lists, page: 1, total: lists.length };
  });
