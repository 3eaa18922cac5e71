// Comments explain the code where it stands: a person who clones the repository can follow every one.
// So no comment, test title or other text of the code names an issue number, or a document the
// repository does not hold (the design, style and stack notes, the card of the required stack, a folder beside
// the repository). Nor does any file of src, sw, tests or the README cite a section by its sign (the product
// spec's sections were cited so): a comment states the rule itself, or names the constant that holds it. A
// standard's section is spelled out ("RFC 6238, section 5.2").
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const SELF = 'tests/unit/comments-cite-nothing-outside.test.ts';
const FOLDERS = ['src', 'sw', 'tests'];
const TOP_FILES = ['eslint.config.js', 'vite.config.ts', 'lingui.config.ts', 'index.html', '.ci/run'];
const SCRIPT = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.mts', '.cts']);
const SCANNED = new Set([...SCRIPT, '.css', '.html', '.md', '.sql']);

/** Citations wherever they stand: in a comment, a test's title or any other string. */
const ANYWHERE: [string, RegExp][] = [
  ['an issue number', /\bissues? ?#\d+|\bissues? \d+\b/gi],
  // (?:) keeps the names whole for the patterns while the words themselves do not stand in this file.
  ['the design notes', /\bARCHI(?:)TECTURE\b/g],
  ['the style notes', /\bSTY(?:)LE(?:\.md\b|\s+["“])/g],
  ['the stack notes', /\bSTACK(?:)-NOTES\b/g],
  ['the card of the required stack', /\bdesign[ -]card\b/gi],
  ['the product spec as a file', /\bproduct-(?:)spec\.md\b/g],
];

/**
 * Citations that only a comment can make (in code the same characters mean something else: a validation
 * issue, a colour). A `#` before a number counts in a script's comments only: in a stylesheet's, black is `#`, `000`.
 */
const IN_COMMENTS: [string, RegExp, 'scripts' | 'all'][] = [
  ['a folder beside the repository', /(?:\.\.\/)+shared\b/g, 'all'],
  ['an issue number', /(?:^|[\s(,;])#\d{1,4}\b(?![\w-])/g, 'scripts'],
  [
    'an issue named but not here',
    /\b(?:this|that|the|an earlier|a later|the previous|the last|the next) issue(?:'s)?\b|\bissues'|\bissue "|\(\s*[a-z-]+ issue\s*\)/gi,
    'all',
  ],
];

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return SCANNED.has(extname(entry.name)) ? [path] : [];
  });
}

/** Every comment of a script as [offset, text], found by the TypeScript parser (a `//` inside a string or a URL is no
 * comment). */
function scriptComments(path: string, text: string): [number, string][] {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, string>();
  const keep = (ranges: ts.CommentRange[] | undefined) =>
    ranges?.forEach((range) => found.set(range.pos, text.slice(range.pos, range.end)));
  const visit = (node: ts.Node) => {
    keep(ts.getLeadingCommentRanges(text, node.getFullStart()));
    keep(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...found];
}

/** The comments of any scanned file as [offset, text]; a Markdown file is all prose. */
function comments(path: string, text: string): [number, string][] {
  const extension = extname(path);
  if (SCRIPT.has(extension)) return scriptComments(path, text);
  const pattern =
    extension === '.css'
      ? /\/\*[\s\S]*?\*\//g
      : extension === '.html'
        ? /<!--[\s\S]*?-->/g
        : extension === '.sql'
          ? /--.*$/gm
          : path.endsWith('run')
            ? /#.*$/gm
            : /[\s\S]+/g;
  return [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** Each citation in the text of `name` (a path from the repository's root) as "name:line: what it cites — the words".
 * */
function citationsIn(name: string, text: string): string[] {
  const found: string[] = [];
  const note = (offset: number, what: string, words: string) =>
    found.push(`${name}:${lineOf(text, offset)}: ${what} — ${words.trim()}`);
  for (const [what, pattern] of ANYWHERE) for (const match of text.matchAll(pattern)) note(match.index, what, match[0]);
  const script = SCRIPT.has(extname(name));
  // A comment's citation is in the text too: parse only a file that has one of the words at all.
  const candidate = IN_COMMENTS.some(([, pattern]) => text.search(pattern) >= 0);
  if (candidate)
    for (const [offset, comment] of comments(name, text))
      for (const [what, pattern, where] of IN_COMMENTS)
        if (script || where === 'all')
          for (const match of comment.matchAll(pattern)) note(offset + match.index, what, match[0]);
  // In code, a path to a `shared` folder is a citation only when it leaves the repository.
  for (const match of text.matchAll(/['"`]((?:\.\.\/)+shared)\b/g))
    if (relative(ROOT, resolve(ROOT, name, '..', match[1])).startsWith('..'))
      note(match.index, 'a folder beside the repository', match[1]);
  return [...new Set(found)];
}

const files = [...FOLDERS.flatMap(filesUnder), ...TOP_FILES].filter((path) => path !== SELF);

/** The section sign, written as an escape so that this file holds none itself. */
const SECTION_SIGN = '\u00a7';
/** The sign with the number it cites, if any: "(sign)7", "(sign) 5.2". */
const SECTION = new RegExp(`${SECTION_SIGN}\\s*(?:\\d+(?:\\.\\d+)*)?`, 'g');
/** Top-level files the section check reads besides TOP_FILES: the README and the configuration scripts. */
const TOP_TEXTS = ['README.md', ...readdirSync('.').filter((name) => /\.(?:ts|js)$/.test(name))];

/** Every file under a folder whatever its kind (catalogs, JSON, SQL too), but node_modules and binary files. */
function everyTextFileUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : everyTextFileUnder(path);
    return readFileSync(path).includes(0) ? [] : [path];
  });
}

/** Each section sign in the text of `name` as "name:line: a section cited by its sign — the words". */
function sectionSignsIn(name: string, text: string): string[] {
  return [...text.matchAll(SECTION)].map(
    (match) => `${name}:${lineOf(text, match.index)}: a section cited by its sign — ${match[0].trim()}`,
  );
}

/** This file included: its sign is an escape. */
const textFiles = [...new Set([...FOLDERS.flatMap(everyTextFileUnder), ...TOP_FILES, ...TOP_TEXTS])];

describe('comments and test titles', () => {
  it('finds the files it checks', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files).toContain('src/lib/api.ts');
  });

  it('cite no issue and no document the repository does not hold', () => {
    expect(files.flatMap((path) => citationsIn(path.split(sep).join('/'), readFileSync(path, 'utf8')))).toEqual([]);
  });
});

describe('section signs', () => {
  it('reads every text file of src, sw and tests, and the README', () => {
    expect(textFiles).toEqual(expect.arrayContaining(['README.md', 'src/locales/th/messages.po', SELF]));
    expect(textFiles.length).toBeGreaterThan(files.length);
  });

  it('stand in no file: each rule is stated where it applies', () => {
    expect(textFiles.flatMap((path) => sectionSignsIn(path.split(sep).join('/'), readFileSync(path, 'utf8')))).toEqual(
      [],
    );
  });

  it.each([
    `// The payment password: exactly 6 digits (${SECTION_SIGN}5).`,
    `it('${SECTION_SIGN}9 caps quick redemption', () => {});`,
    `/** RFC 6238 ${SECTION_SIGN}5.2 allows one step. */`,
    `A read waits up to 60 s (${SECTION_SIGN} 9).`,
  ])('%s cites a section', (text) => {
    expect(sectionSignsIn('src/example.ts', text)).toHaveLength(1);
    expect(sectionSignsIn('src/example.ts', `a\n${text}`)[0]).toMatch(
      /^src\/example\.ts:2: a section cited by its sign/,
    );
  });

  it.each([
    '/** RFC 6238, section 5.2, allows one step either side. */',
    '// Quick redemption is capped at 30,000,000 USDT a day; the rest goes standard.',
    "it('caps quick redemption at what is left today', () => {});",
  ])('%s cites no section', (text) => expect(sectionSignsIn('src/example.ts', text)).toEqual([]));
});

describe('what counts as a citation', () => {
  // Each example with a '|' inside its citation, taken out before the check: written whole here, the examples
  // would be citations in the tree themselves.
  const cited = (text: string) => text.replaceAll('|', '');
  it.each([
    '// The console (iss|ue 30): its own build.',
    '/** Iss|ue 28: the second factor first. */',
    "it('keeps the order (iss|ue #|41)', () => {});",
    '// See ARCHI|TECTURE "Offline".',
    '// STY|LE "One rule, one home, many entry points"',
    '// as STY|LE.md says',
    '// per STACK-|NOTES',
    '// the design |card lists the folders',
    '// read ..|/sha|red/spec/product-|sp|ec.md',
    '// fixed in #|41',
    "// the iss|ue's target is 90 KB",
    "// the targets live in the iss|ues' notes",
    '// Budgets (performance iss|ue): the first visit',
    "const spec = readFileSync('../../..|/sha|red/sp|ec.md', 'utf8');",
  ])('%s cites', (text) => expect(citationsIn('tests/unit/example.ts', cited(text))).not.toEqual([]));

  it.each([
    ['src/example.ts', '// The second factor, before the payment password.'],
    ['src/example.ts', "const styles = ['a']; // the page's styles"],
    ['src/example.ts', "import { texts } from '../api-contract/texts.ts';"],
    ['src/example.ts', "import { pick } from '../sha|red/pick.ts'; // a folder of src"],
    ['src/example.ts', "const color = '#|333';"],
    ['src/example.ts', 'const issue = parsed.issues?.[0]; // the first validation issue of the form'],
    ['src/example.ts', "// valibot's generic missing-key issue"],
    ['src/example.ts', "const id = 'e.iss|ue2fa';"],
    ['src/example.css', `/* the card's border, #fff on ${'#'}000 */`],
  ])('%s: %s cites nothing', (name, text) => expect(citationsIn(name, cited(text))).toEqual([]));
});
