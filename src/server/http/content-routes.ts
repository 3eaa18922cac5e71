// Public content: system config by act, and slides by position, in the request's language (else
// English); kept in memory per language.
import { config, slides } from '../../contract/content.ts';
import { activeSlidesIn, configEntriesIn } from '../domain/content-languages.ts';
import type { router } from './handle.ts';

export function contentRoutes(route: ReturnType<typeof router>) {
  route(config, (input, { db, kept, locale }) =>
    kept.config.read(`${input.act}:${locale}`, async () => {
      const rows = await configEntriesIn(db, input.act, locale);
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }),
  );

  route(slides, (input, { db, kept, locale }) =>
    kept.slides.read(`${input.position}:${locale}`, async () => {
      const rows = await activeSlidesIn(db, input.position, locale);
      const lists = rows.map(({ id, title, image, link }) => ({ id, title, image, link }));
      return { lists, page: 1, total: lists.length };
    }),
  );
}
