// @vitest-environment node
// A page looks the same however it is opened (from a link, a reload, the app reopened on it): every class a feature
// page names that only a stylesheet of the features defines must come with the page, imported by the page or by a
// module it imports statically. A page that borrowed its stylesheet from the page one usually arrives from showed
// unstyled when opened directly (the bank and crypto recharge pages did).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = resolve('src');
const walk = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
const FILES = walk(SRC);

/** Every class a stylesheet defines, with the stylesheets that define it. */
const definedIn = new Map<string, Set<string>>();
for (const sheet of FILES.filter((file) => file.endsWith('.css'))) {
  const text = readFileSync(sheet, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const [, name] of text.matchAll(/\.([a-zA-Z][\w-]*)/g)) {
    if (!definedIn.has(name!)) definedIn.set(name!, new Set());
    definedIn.get(name!)!.add(sheet);
  }
}

/** The files a module imports statically (relative paths; a lazy `import()` loads later, so it does not count). */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:import|from)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(([, path]) =>
    resolve(dirname(file), path!),
  );
function reached(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !existsSync(file)) return seen;
  seen.add(file);
  if (!file.endsWith('.css')) for (const next of importsOf(file)) reached(next, seen);
  return seen;
}

/** The class names a module writes: className="…", className={'…'} and the literal parts of className={`…`}. */
function classesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, plain, quoted, template] of text.matchAll(/className=(?:"([^"]+)"|\{'([^']+)'\}|\{`([^`]+)`\})/g)) {
    const literal = plain ?? quoted ?? template!.replace(/\$\{[^}]*\}/g, ' ');
    for (const name of literal.split(/\s+/)) if (/^[a-z][\w-]*$/.test(name)) names.add(name);
  }
  return names;
}

const featureSheet = (sheet: string) => sheet.startsWith(join(SRC, 'features'));
/** What every page has: the stylesheets the app's entry point brings, statically. */
const everywhere = reached(join(SRC, 'main.tsx'));
const pages = FILES.filter((file) => file.startsWith(join(SRC, 'features')) && file.endsWith('Page.tsx'));

it.each(pages.map((page) => [page.slice(SRC.length + 1), page]))(
  '%s brings the stylesheets of the classes it names',
  (_name, page) => {
    const brought = reached(page);
    const missing = [...classesOf(readFileSync(page, 'utf8'))].filter((name) => {
      const sheets = [...(definedIn.get(name) ?? [])];
      return (
        sheets.length > 0 && sheets.every(featureSheet) && !sheets.some((s) => brought.has(s) || everywhere.has(s))
      );
    });
    expect(missing).toEqual([]);
  },
);
