// One migrated PGlite snapshot for the whole run (a fresh instance costs ~5 s); each test file
// loads it into its own in-memory database in about a second.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedSnapshot } from '../../src/server/db/connection.ts';

export default async function setup(project: TestProject) {
  const file = join(mkdtempSync(join(tmpdir(), 'coinvest-db-')), 'snapshot.tar.gz');
  writeFileSync(file, Buffer.from(await (await migratedSnapshot()).arrayBuffer()));
  project.provide('dbSnapshot', file);
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbSnapshot: string;
  }
}
