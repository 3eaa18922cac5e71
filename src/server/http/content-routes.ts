// Public content: system config by act, and slides by position.
import { and, asc, eq } from 'drizzle-orm';
import { config, slides } from '../../contract/content.ts';
import { configEntries, slides as slidesTable } from '../db/schema.ts';
import type { router } from './handle.ts';

export function contentRoutes(route: ReturnType<typeof router>) {
  route(config, (input, { db, kept }) =>
    kept.config.read(input.act, async () => {
      const rows = await db.select().from(configEntries).where(eq(configEntries.act, input.act));
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }),
  );

  route(slides, (input, { db, kept }) =>
    kept.slides.read(input.position, async () => {
      const rows = await db
        .select()
        .from(slidesTable)
        .where(and(eq(slidesTable.position, input.position), eq(slidesTable.active, true)))
        .orderBy(asc(slidesTable.sort), asc(slidesTable.id));
      const lists = rows.map(({ id, title, image, link }) => ({ id, title, image, link }));
      return { lists, page: 1, total: lists.length };
    }),
  );
}
