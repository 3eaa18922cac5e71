// The server suite on a real PostgreSQL (vitest project `server-pg`): a throwaway cluster
// (tests/server/postgres.ts: Debian's binaries, a folder in /tmp, fsync off) with one migrated
// template database; each harness copies it (CREATE DATABASE … TEMPLATE) and drops its copy.
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/connection.ts';
import { startPostgres } from './postgres.ts';

export const TEMPLATE_DATABASE = 'coinvest_template';

export default async function setup(project: TestProject) {
  const cluster = await startPostgres();
  // Migrated once; no connection may stay open on a template while it is copied.
  const template = await openDatabase({ kind: 'postgres', url: await cluster.createDatabase(TEMPLATE_DATABASE) });
  await template.close();
  project.provide('pgAdminUrl', cluster.url());
  project.provide('pgTemplate', TEMPLATE_DATABASE);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the `server-pg` project only: the cluster's maintenance database. */
    pgAdminUrl: string;
    pgTemplate: string;
  }
}
