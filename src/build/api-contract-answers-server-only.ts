import type { Plugin } from 'vite';

/**
 * The answer schemas of src/api-contract (`returns(Schema)`, the shape of each endpoint's data) check the
 * server's answers in the tests and publish them in /api/openapi.json; the PWA never parses an
 * answer, so its build calls `returns()`, `shape()`, `Paged()`, `CursorPaged()` and `nullableList()` with no
 * argument: nothing names an answer's fields any more and the schemas fall out of the bundle (the builders are free of
 * side effects; a spread or property read left in an argument would keep its statement). Runs after the
 * TypeScript is compiled, on the AST.
 */
export function apiContractAnswersServerOnly(): Plugin {
  type Node = {
    type: string;
    start: number;
    end: number;
    callee?: Node;
    key?: Node;
    name?: string;
    arguments?: Node[];
    properties?: Node[];
  };
  const ANSWER_BUILDERS = new Set(['returns', 'shape', 'Paged', 'CursorPaged', 'nullableList']);
  return {
    name: 'coinvest:api-contract-answers-server-only',
    apply: 'build',
    transform(code, id) {
      const answers = [...ANSWER_BUILDERS].some((name) => code.includes(`${name}(`));
      if (!id.includes('/src/api-contract/') || !(answers || code.includes('cache:'))) return null;
      const isCache = (node: Node) =>
        node.type === 'Property' && node.key?.type === 'Identifier' && node.key.name === 'cache';
      // Each cut: [start, end, replacement].
      const cuts: [number, number, string][] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (typeof node !== 'object' || node === null) return;
        const candidate = node as Node;
        if (
          candidate.type === 'CallExpression' &&
          candidate.callee?.type === 'Identifier' &&
          ANSWER_BUILDERS.has(candidate.callee.name!) &&
          candidate.arguments?.length
        )
          cuts.push([candidate.start, candidate.end, `${candidate.callee.name}()`]);
        // An endpoint's cache policy (`cache: 'user'`): the build lists the cached calls for the
        // service worker and the page (cachedCalls), so the app's endpoints need not carry it.
        else if (
          candidate.type === 'ObjectExpression' &&
          candidate.properties?.length === 1 &&
          isCache(candidate.properties[0]!)
        ) {
          // `{ cache: 'user' }` alone: the whole argument goes, with its comma.
          const before = code.slice(0, candidate.start).trimEnd();
          cuts.push([before.endsWith(',') ? before.length - 1 : candidate.start, candidate.end, '']);
        } else if (isCache(candidate)) {
          const after = code.slice(candidate.end);
          const comma = after.trimStart().startsWith(',') ? after.length - after.trimStart().length + 1 : 0;
          cuts.push([candidate.start, candidate.end + comma, '']);
        } else Object.values(node).forEach(walk);
      };
      walk(this.parse(code));
      let out = code;
      for (const [start, end, replacement] of cuts.sort((a, b) => b[0] - a[0]))
        out = `${out.slice(0, start)}${replacement}${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}
