import { parseSync, Visitor } from 'vite';
import type { Plugin } from 'vite';

/**
 * The API contract's texts keep their English for the server and the catalogs; the built PWA reads every
 * text from the compiled catalogs (the source language's included), so the bundle keeps only the ids,
 * as the Lingui macro does for the texts of the pages: each descriptor marked for Lingui,
 * `/*i18n*\/ { id: '…', message: '…' }`, loses its message (read from the file's syntax tree, in any layout).
 */
export function apiContractTextIdsOnly(): Plugin {
  return {
    name: 'coinvest:api-contract-text-ids-only',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/api-contract/texts.ts')) return null;
      const { program, comments } = parseSync(id, code);
      const marked = new Set(
        comments
          .filter((comment) => comment.type === 'Block' && comment.value === 'i18n')
          .map((comment) => comment.end),
      );
      const isMarked = (start: number) =>
        [...marked].some((end) => end <= start && code.slice(end, start).trim() === '');
      // Each cut: from the end of `id: '…'` to the end of the descriptor, which closes again right after the id.
      const cuts: [number, number][] = [];
      new Visitor({
        ObjectExpression: (node) => {
          const [idField, message, ...more] = node.properties;
          const field = (property: typeof idField, name: string) =>
            property?.type === 'Property' &&
            property.key.type === 'Identifier' &&
            property.key.name === name &&
            property.value.type === 'Literal' &&
            typeof property.value.value === 'string';
          if (more.length || !field(idField, 'id') || !field(message, 'message') || !isMarked(node.start)) return;
          cuts.push([idField!.end, node.end]);
        },
      }).visit(program);
      let out = code;
      for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)} }${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}
