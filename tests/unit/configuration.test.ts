// One declaration of the configuration: every environment variable the server or the build reads is in
// src/server/config-schema.ts, the server reads the environment only through it (config.ts), and the checked-in
// page src/server/CONFIGURATION.md is exactly what the schema makes.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES, readVariables } from '../../src/server/config-schema.ts';
import { CONFIGURATION_PAGE, configurationPage } from '../../src/server/config-page.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'src', 'server');
/** The one file that may touch the process's environment. */
const READER = join(SERVER, 'config.ts');

/** Every .ts file under `folder`. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [path] : [];
  });
}

/** The variables `code` reads by name: process.env.X, env.X, env['X'], import.meta.env.X. */
function namesRead(code: string): string[] {
  const names = [
    ...code.matchAll(/\benv\.([A-Za-z_][A-Za-z0-9_]*)/g),
    ...code.matchAll(/\benv\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\]/g),
  ].map((match) => match[1]!);
  // Vite's own import.meta.env entries are no configuration.
  return names.filter((name) => !['PROD', 'DEV', 'MODE', 'SSR', 'BASE_URL'].includes(name));
}

describe('the configuration schema', () => {
  it('declares every variable the server, its operator command, the app and the build read by name', () => {
    const files = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'sw')), join(ROOT, 'vite.config.ts')];
    const undeclared = files.flatMap((file) =>
      namesRead(readFileSync(file, 'utf8'))
        .filter((name) => !(name in VARIABLES))
        .map((name) => `${relative(ROOT, file)}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('is the only way the server reads the environment: process.env appears in config.ts alone', () => {
    const elsewhere = sources(SERVER)
      .filter((file) => file !== READER && /\bprocess\.env\b|\bProcessEnv\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(elsewhere).toEqual([]);
  });

  it('catches a read it does not declare', () => {
    expect(namesRead("const port = process.env.PORT_TYPO ?? env['OTHER'];")).toEqual(['PORT_TYPO', 'OTHER']);
  });

  it('gives every variable a meaning, a kind and what unset stands for, and reads an empty environment', () => {
    for (const [name, variable] of Object.entries(VARIABLES)) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(variable.meaning.length, name).toBeGreaterThan(10);
      expect(variable.type, name).not.toBe('');
      expect(variable.default, name).not.toBe('');
    }
    expect(() => readVariables({})).not.toThrow();
  });

  it('stops on every wrong value at once, one line each naming its variable', () => {
    expect(() => readVariables({ PORT: 'eighty', SEED_DEMO: 'flase', SESSION_MAX_DAYS: '0' })).toThrow(
      'PORT=eighty is not a whole number, 0 to 65535.\n' +
        'SEED_DEMO=flase is not one of true, false.\n' +
        'SESSION_MAX_DAYS=0 is not a number of days above 0 (unset: 180).',
    );
  });

  it('reads unset and empty alike, and a default as if it were set', () => {
    expect(readVariables({ PORT: '', HOST: '  ' })).toMatchObject({ PORT: 8080, HOST: '0.0.0.0' });
    expect(readVariables({ WEB_ROOT: '' }).WEB_ROOT).toBeNull();
    expect(readVariables({}).PAYEE_COOLING_HOURS).toBe(
      readVariables({ PAYEE_COOLING_HOURS: '24' }).PAYEE_COOLING_HOURS,
    );
  });
});

describe('the configuration page', () => {
  it('is what the schema makes (after changing the schema: npm run config:docs)', () => {
    expect(readFileSync(CONFIGURATION_PAGE, 'utf8')).toBe(configurationPage());
  });

  it('has one row per variable', () => {
    const rows = configurationPage()
      .split('\n')
      .filter((line) => /^\| `[A-Z]/.test(line))
      .map((line) => /^\| `([A-Z0-9_]+)`/.exec(line)![1]);
    expect(rows.sort()).toEqual(Object.keys(VARIABLES).sort());
  });
});
