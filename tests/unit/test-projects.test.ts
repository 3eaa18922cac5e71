// @vitest-environment node
// Where each server test file runs (tests/projects.ts) stays true to the folder: every file a list names exists, no
// file is in two lists, a file said to open no database opens none, and only a file that runs on both databases asks
// which one it is on (a file that runs once has no branch for the other).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOTH_FILES, EMBEDDED_FILES, EMBEDDED_SMOKE, NO_DATABASE_FILES } from '../projects.ts';

const LISTS = { EMBEDDED_FILES, EMBEDDED_SMOKE, BOTH_FILES, NO_DATABASE_FILES };
const SERVER_FILES = readdirSync('tests/server')
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/server/${name}`);

describe('the server test files in tests/projects.ts', () => {
  it.each(Object.entries(LISTS))('%s names files that exist', (_, files) => {
    expect(files.filter((file) => !existsSync(file))).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });

  it('names each file in one list at most', () => {
    const named = Object.values(LISTS).flat();
    expect(named.filter((file, index) => named.indexOf(file) !== index)).toEqual([]);
  });

  it('says a file opens no database only when it starts no harness, database or server', () => {
    const opening = NO_DATABASE_FILES.filter((file) =>
      /startHarness|openTestDatabase|openDatabase|server-process|pg-processes/.test(readFileSync(file, 'utf8')),
    );
    expect(opening).toEqual([]);
  });

  it('leaves the question which database it is on to the files that run on both', () => {
    const asking = SERVER_FILES.filter((file) => /\bonPostgres\(\)/.test(readFileSync(file, 'utf8')));
    expect(asking.length).toBeGreaterThan(0);
    expect(asking.filter((file) => !BOTH_FILES.includes(file))).toEqual([]);
  });
});
