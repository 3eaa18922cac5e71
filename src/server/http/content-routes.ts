// Public content: system config by act, and slides by position.
import { config, slides } from '../../contract/content.ts';
import { activeSlides } from '../domain/content-pages.ts';
import { configEntriesOf } from '../domain/config-entries.ts';
import type { router } from './handle.ts';

export function contentRoutes(route: ReturnType<typeof router>) {
  route(config, (input, { db, kept }) =>
    kept.config.read(input.act, async () => {
      const rows = await configEntriesOf(db, input.act);
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }),
  );

  route(slides, (input, { db, kept }) =>
    kept.slides.read(input.position, async () => {
      const rows = await activeSlides(db, input.position);
      const lists = rows.map(({ id, title, image, link }) => ({ id, title, image, link }));
      return { lists, page: 1, total: lists.length };
    }),
  );
}
