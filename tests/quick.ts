// `npm run test:quick`: the inner loop's check, a few minutes with nothing installed beyond npm's packages: the unit
// suite, and on the embedded database (project `server`) the smoke set of the money paths and the server files that
// open no database (tests/projects.ts). No type check, lint, PostgreSQL or browser: `npm test` runs those. Arguments
// go on to vitest (`npm run test:quick -- --reporter=dot`).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { EMBEDDED_SMOKE, NO_DATABASE_FILES } from './projects.ts';
import { compileCacheEnv } from './compile-cache.ts';

const files = ['tests/unit/', ...EMBEDDED_SMOKE, ...NO_DATABASE_FILES];
const run = spawnSync(
  resolve('node_modules/.bin/vitest'),
  ['run', '--project', 'unit', '--project', 'server', ...files, ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, ...compileCacheEnv() } },
);
process.exitCode = run.status ?? 1;
