// The documents are a way in only while their links lead somewhere: every relative link of every Markdown file of the
// repository (outside node_modules, dist and the other folders nothing is written by hand in) names a file that exists
// and, with a #fragment, a heading that file has (GitHub's anchors); every `npm run` they give names a script of
// package.json, and every test file a `vitest run --project` names is one that project runs. The README stays a way
// in: at most 16 KB, linking at least five documents, naming every script, and every document is reached from it by
// following links.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, matchesGlob, normalize, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testProjects } from '../projects.ts';

const ROOT = resolve('.');
/** Folders made by tools, never written by hand; a folder whose name starts with a dot (.git, .ci) is skipped too. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-results']);
/** The README's most: a way in, not the whole story (16 KB). */
const README_MAX_BYTES = 16 * 1024;
/** The fewest documents beside the code the README must link. */
const README_MIN_DOCUMENTS = 5;

/** Every Markdown file under `folder`, as a path from the repository's root with `/` between folders. */
function markdownFiles(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

/** The text without fenced code blocks, whose lines are code, not headings or links (blanked: line numbers kept). */
const withoutFences = (text: string) =>
  text.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ' '));

/** The prose of a text: without fenced blocks and without code spans, whose brackets are code too. */
const prose = (text: string) =>
  withoutFences(text).replace(/(`+)[^`\n][\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));

interface Link {
  line: number;
  target: string;
}

/** The links of a Markdown text: inline `[text](target "title")`, images too, and definitions `[x]: target`. */
function linksIn(text: string): Link[] {
  const source = prose(text);
  const lineAt = (offset: number) => source.slice(0, offset).split('\n').length;
  const inline = [...source.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const references = [...source.matchAll(/^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+"[^"]*")?[ \t]*$/gm)];
  return [...inline, ...references].map((match) => ({ line: lineAt(match.index), target: match[1]! }));
}

/** GitHub's anchors of a text's headings: lower case, every character but letters, marks, digits, `_`, `-` and spaces
 * dropped (a code span's backticks too), spaces as `-`; a repeated anchor gets `-1`, `-2`… */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(text).matchAll(/^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const words = match[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase();
    const base = words.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** A link that leaves the repository: a scheme (https:, mailto:) or a host (`//`). */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * Each broken relative link of the Markdown file `file` (a path from the root) as "file:line: target — why", given the
 * file's text and a reader of the other files' texts; `/`-rooted targets are read from the repository's root.
 */
function brokenLinks(file: string, text: string, read: (path: string) => string | null): string[] {
  const broken: string[] = [];
  for (const { line, target } of linksIn(text)) {
    if (isExternal(target)) continue;
    const [rawPath = '', rawAnchor] = target.split('#', 2) as [string, string | undefined];
    const path = decodeURI(rawPath);
    const resolved = path === '' ? file : normalize(path.startsWith('/') ? path.slice(1) : join(dirname(file), path));
    const where = resolved.split(sep).join('/');
    const note = (why: string) => broken.push(`${file}:${line}: ${target} — ${why}`);
    if (where.startsWith('..')) {
      note('leaves the repository');
      continue;
    }
    const linked = read(where);
    if (linked === null) {
      note('no such file');
      continue;
    }
    if (rawAnchor === undefined || rawAnchor === '' || !where.endsWith('.md')) continue;
    if (!anchorsOf(linked).has(decodeURIComponent(rawAnchor).toLowerCase())) note('no such heading');
  }
  return broken;
}

/** The text of a path from the root: a file's text, '' for a folder, null when there is none. */
function readFromRoot(path: string): string | null {
  const full = join(ROOT, path);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

/** The Markdown files `file` links to, as paths from the root. */
function linkedDocuments(file: string): string[] {
  return linksIn(readFileSync(join(ROOT, file), 'utf8'))
    .map(({ target }) => target.split('#')[0]!)
    .filter((path) => path !== '' && !isExternal(path) && path.endsWith('.md'))
    .map((path) => normalize(path.startsWith('/') ? path.slice(1) : join(dirname(file), decodeURI(path))))
    .map((path) => path.split(sep).join('/'));
}

const documents = markdownFiles();

/** The scripts of package.json, by name. */
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The npm scripts a text runs: `npm run <name>`, and `npm start` / `npm test` (npm's own short forms). */
function npmCommandsIn(text: string): Set<string> {
  const names = [...text.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)].map((match) => (match[1] ?? match[2])!);
  return new Set(names);
}

/** The commands of a text that run test files, `vitest run --project <name>… <file>…`: the projects and the files
 * (a file named with a placeholder, `tests/unit/<name>.test.ts`, is left out). */
function vitestRunsIn(text: string): { projects: string[]; files: string[] }[] {
  return [...text.matchAll(/vitest run((?:\s+--project\s+[\w-]+)+)((?:[ \t]+tests\/[^\s`]+)+)/g)].map((match) => ({
    projects: [...match[1]!.matchAll(/--project\s+([\w-]+)/g)].map((project) => project[1]!),
    files: match[2]!
      .trim()
      .split(/\s+/)
      .filter((file) => !file.includes('<')),
  }));
}

/** Whether the project `name` of tests/projects.ts runs `file` (its include, less its exclude). */
function projectRuns(name: string, file: string): boolean {
  const project = testProjects.find((candidate) => candidate.test?.name === name)?.test;
  const matches = (globs: readonly string[] | undefined) => (globs ?? []).some((glob) => matchesGlob(file, glob));
  return project !== undefined && matches(project.include) && !matches(project.exclude);
}

describe('the Markdown documents', () => {
  it('are found: the README, the generated configuration page and the documents beside the code', () => {
    expect(documents).toEqual(
      expect.arrayContaining(['README.md', 'src/server/CONFIGURATION.md', 'src/server/README.md', 'tests/README.md']),
    );
    expect(documents.some((path) => path.includes('node_modules'))).toBe(false);
  });

  it('link only to files and headings that exist', () => {
    const broken = documents.flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8'), readFromRoot));
    expect(broken).toEqual([]);
  });

  it('run only npm scripts package.json has', () => {
    const unknown = documents.flatMap((file) =>
      [...npmCommandsIn(readFileSync(join(ROOT, file), 'utf8'))]
        .filter((name) => !(name in scripts))
        .map((name) => `${file}: npm run ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('run each test file they name in a project that runs it', () => {
    const commands = documents.map((file) => ({ file, runs: vitestRunsIn(readFileSync(join(ROOT, file), 'utf8')) }));
    // The walkthroughs and tests/README.md give a dozen and more: a reader that found none would check nothing.
    expect(commands.flatMap(({ runs }) => runs).length).toBeGreaterThan(10);
    const misplaced = commands.flatMap(({ file, runs }) =>
      runs.flatMap(({ projects, files }) =>
        files
          .filter((test) => !projects.some((project) => projectRuns(project, test)))
          .map((test) => `${file}: --project ${projects.join(' --project ')} does not run ${test}`),
      ),
    );
    expect(misplaced).toEqual([]);
  });

  it('are all reached from the README by following links', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0)
      for (const next of linkedDocuments(queue.shift()!))
        if (!reached.has(next) && existsSync(join(ROOT, next))) {
          reached.add(next);
          queue.push(next);
        }
    expect(documents.filter((path) => !reached.has(path))).toEqual([]);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'));

  it(`is a way in: at most ${README_MAX_BYTES} bytes`, () => {
    expect(readme.byteLength).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it("names every script of package.json: a newcomer's list of what can be run", () => {
    const text = readme.toString('utf8');
    const unnamed = Object.keys(scripts).filter((name) => !npmCommandsIn(text).has(name));
    expect(unnamed).toEqual([]);
  });

  it(`links at least ${README_MIN_DOCUMENTS} documents beside the code`, () => {
    const linked = new Set(
      linkedDocuments('README.md').filter((path) => path.includes('/') && documents.includes(path)),
    );
    expect(linked.size).toBeGreaterThanOrEqual(README_MIN_DOCUMENTS);
  });
});

describe('the link check', () => {
  const files: Record<string, string> = {
    'docs/a.md': '# Title\n\n## A `code` heading\n\n## Twice\n\n## Twice\n',
    'docs/b.md': '',
    'docs/folder': '',
  };
  const read = (path: string) => files[path] ?? null;
  const check = (text: string) => brokenLinks('docs/b.md', text, read).map((line) => line.replace(/^docs\/b\.md:/, ''));

  it('passes links to files, folders, headings (GitHub anchors, repeats numbered) and the outside', () => {
    expect(
      check(
        '[a](a.md) [t](a.md#title) [c](a.md#a-code-heading) [2](a.md#twice-1) [f](folder) [w](https://x.example/y#z) ' +
          '[m](mailto:a@x.example) [r](/docs/a.md#title)',
      ),
    ).toEqual([]);
  });

  it('names a missing file, a missing heading and a way out of the repository, with the line', () => {
    expect(check('[x](missing.md)\n\n[y](a.md#nowhere)\n[z](../../etc/passwd)\n[r]: gone.md')).toEqual([
      '1: missing.md — no such file',
      '3: a.md#nowhere — no such heading',
      '4: ../../etc/passwd — leaves the repository',
      '5: gone.md — no such file',
    ]);
  });

  it('reads no link in code: fenced blocks and code spans', () => {
    expect(check('```md\n[x](missing.md)\n```\n\n  ```\n  [y](gone.md)\n  ```\n\n`[z](nope.md)`')).toEqual([]);
  });

  it('reads the npm scripts a text runs, and not npm itself', () => {
    expect(npmCommandsIn('`npm run test:e2e -- x`, npm start; npm test. npm ci, npm install, npm run ops')).toEqual(
      new Set(['test:e2e', 'start', 'test', 'ops']),
    );
  });

  it('reads the test files a command runs and the projects it names', () => {
    expect(
      vitestRunsIn('`npx vitest run --project e2e --project e2e-after tests/e2e/a.test.ts tests/e2e/<name>.test.ts`'),
    ).toEqual([{ projects: ['e2e', 'e2e-after'], files: ['tests/e2e/a.test.ts'] }]);
  });

  it("knows a project's files: offline-screens runs in e2e-after, not in e2e", () => {
    expect(projectRuns('e2e', 'tests/e2e/offline-screens.test.ts')).toBe(false);
    expect(projectRuns('e2e-after', 'tests/e2e/offline-screens.test.ts')).toBe(true);
    expect(projectRuns('e2e', 'tests/e2e/sessions.test.ts')).toBe(true);
    expect(projectRuns('unit', 'tests/unit/catalogs.test.ts')).toBe(true);
  });

  it('makes the anchors GitHub makes', () => {
    expect([
      ...anchorsOf("# What to do when…\n## The books' check\n## Earn (server)\n## What `npm test` runs\n"),
    ]).toEqual(expect.arrayContaining(['what-to-do-when', 'the-books-check', 'earn-server', 'what-npm-test-runs']));
  });
});
