// The lint's import-cycle rule (eslint.config.js turns it on): no module reaches itself again through its imports.
// Every import counts: one of values, one of types only (`import type`, `export type … from`, `typeof import(…)`), a
// re-export, a side-effect import, a dynamic import(). A circle through a type import still ties its modules together
// (none can be read, moved or tested without the others), and import-x/no-cycle skips type-only imports with no option
// to count them. Imports resolve with the lint's own resolvers (settings 'import-x/resolver-next'); a package's files
// (node_modules) and what resolves to no file are not followed.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

/** The files the rule follows: scripts (TypeScript, JavaScript), not JSON, styles or assets. */
const SCRIPT = /\.[cm]?[jt]sx?$/;

/**
 * Every import of a module's text, as written: the specifier, and where it stands (character offsets). TypeScript's
 * pre-processor finds them without a full parse and skips comments and strings.
 * @param {string} text
 * @returns {{ fileName: string, pos: number, end: number }[]}
 */
const importsIn = (text) => ts.preProcessFile(text, true, true).importedFiles;

/**
 * A resolver over the lint's own settings: (specifier, importing file) → the absolute path of a project script, or
 * null for a package, a built-in, a non-script file or what resolves to no file.
 * @param {Record<string, unknown>} settings the ESLint settings; 'import-x/resolver-next' must hold resolver objects
 * @throws {Error} when the settings hold no resolver object (each with a `resolve(specifier, file)` method)
 */
function resolverOf(settings) {
  const resolvers = settings['import-x/resolver-next'];
  if (!Array.isArray(resolvers) || resolvers.length === 0 || resolvers.some((r) => typeof r?.resolve !== 'function'))
    throw new Error(
      "project/no-import-cycle resolves imports with settings['import-x/resolver-next'] (resolver objects)",
    );
  return (specifier, from) => {
    for (const resolver of resolvers) {
      const found = resolver.resolve(specifier, from);
      if (found.found)
        return found.path && SCRIPT.test(found.path) && !/[\\/]node_modules[\\/]/.test(found.path) ? found.path : null;
    }
    return null;
  };
}

/** The line (1-based) of the character at `offset` of `text`. */
const lineAt = (text, offset) => {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
};

/** What each file read from disk imports, kept while the file's modification time stays the same. */
const readImports = new Map();

/**
 * The project scripts a file on disk imports, each with the line (1-based) of its import; none when it cannot be read.
 * @param {string} path absolute
 * @param {(specifier: string, from: string) => string | null} resolve
 * @returns {{ path: string, line: number }[]}
 */
function importsOf(path, resolve) {
  let modified;
  try {
    modified = statSync(path).mtimeMs;
  } catch {
    return [];
  }
  const kept = readImports.get(path);
  if (kept?.modified === modified) return kept.imports;
  const text = readFileSync(path, 'utf8');
  const imports = importsIn(text).flatMap(({ fileName, pos }) => {
    const target = resolve(fileName, path);
    return target ? [{ path: target, line: lineAt(text, pos) }] : [];
  });
  readImports.set(path, { modified, imports });
  return imports;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import through which the module imports itself again (type imports count).' },
    schema: [],
    messages: { cycle: 'Import cycle (type imports count): {{route}} → this file.' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!SCRIPT.test(file)) return {};
    const resolve = resolverOf(context.settings);
    const shown = (path) => relative(context.cwd, path);
    /** Modules known to lead back here, each with its route (`file:line` of each import on the way). */
    const leadBack = new Map();
    /** Modules known not to lead back here. */
    const leadElsewhere = new Set();

    /** The shortest route from `start` back to this file, or null: breadth first, each module once. */
    function routeBack(start) {
      if (leadElsewhere.has(start)) return null;
      if (leadBack.has(start)) return leadBack.get(start);
      const cameFrom = new Map([[start, null]]);
      const queue = [start];
      // The route from `module` (its import on `line`, then `rest`), and from each module before it back to `start`.
      const routeTo = (module, line, rest) => {
        let route = [`${shown(module)}:${line}`, ...rest];
        leadBack.set(module, route);
        for (let step = cameFrom.get(module); step; step = cameFrom.get(step.from)) {
          route = [`${shown(step.from)}:${step.line}`, ...route];
          leadBack.set(step.from, route);
        }
        return route;
      };
      for (let next = 0; next < queue.length; next++) {
        const module = queue[next];
        for (const { path, line } of importsOf(module, resolve)) {
          if (path === file) return routeTo(module, line, []);
          if (leadBack.has(path)) return routeTo(module, line, leadBack.get(path));
          if (leadElsewhere.has(path) || cameFrom.has(path)) continue;
          cameFrom.set(path, { from: module, line });
          queue.push(path);
        }
      }
      for (const module of queue) leadElsewhere.add(module);
      return null;
    }

    return {
      Program() {
        const { sourceCode } = context;
        for (const { fileName, pos, end } of importsIn(sourceCode.text)) {
          const target = resolve(fileName, file);
          if (!target || target === file) continue;
          const route = routeBack(target);
          if (route)
            context.report({
              loc: { start: sourceCode.getLocFromIndex(pos), end: sourceCode.getLocFromIndex(end) },
              messageId: 'cycle',
              data: { route: route.join(' → ') },
            });
        }
      },
    };
  },
};
