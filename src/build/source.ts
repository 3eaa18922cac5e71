// What the build reads from the app's sources, read from their syntax trees (the bundler's parser).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseSync, Visitor } from 'vite';

/** What one source file imports and which contract texts it may name. */
export interface SourceFacts {
  /** The TypeScript files it imports or re-exports by a relative path, type-only imports and exports left out. */
  imports: string[];
  /** The TypeScript files it imports lazily (`import('./…')`). */
  lazy: string[];
  /** The names it reads from `texts` (`texts.key`). */
  textsRead: Set<string>;
  /** Its strings (an API contract text named by its key: `texts[prompt]` with prompt = 'key'). */
  strings: Set<string>;
  /** Whether it calls httpStatusText(status), which picks one of the status texts. */
  callsHttpStatusText: boolean;
}

const isTypeScript = (file: string) => file.endsWith('.ts') || file.endsWith('.tsx');

function parse(file: string, source: string) {
  const { program, errors } = parseSync(file, source);
  if (errors.length) throw new Error(`${file}: ${errors.map((error) => error.message).join('; ')}`);
  return program;
}

export function sourceFacts(file: string, source = readFileSync(file, 'utf8')): SourceFacts {
  const facts: SourceFacts = {
    imports: [],
    lazy: [],
    textsRead: new Set(),
    strings: new Set(),
    callsHttpStatusText: false,
  };
  const add = (list: string[], request: unknown) => {
    if (typeof request !== 'string' || !(request.startsWith('./') || request.startsWith('../'))) return;
    const target = resolve(dirname(file), request);
    if (isTypeScript(target)) list.push(target);
  };
  new Visitor({
    ImportDeclaration: (node) => void (node.importKind !== 'type' && add(facts.imports, node.source.value)),
    ExportNamedDeclaration: (node) =>
      void (node.source && node.exportKind !== 'type' && add(facts.imports, node.source.value)),
    ExportAllDeclaration: (node) => void (node.exportKind !== 'type' && add(facts.imports, node.source.value)),
    ImportExpression: (node) => void (node.source.type === 'Literal' && add(facts.lazy, node.source.value)),
    MemberExpression: (node) => {
      if (
        !node.computed &&
        node.object.type === 'Identifier' &&
        node.object.name === 'texts' &&
        node.property.type === 'Identifier'
      )
        facts.textsRead.add(node.property.name);
    },
    Literal: (node) => void (typeof node.value === 'string' && facts.strings.add(node.value)),
    CallExpression: (node) =>
      void (
        node.callee.type === 'Identifier' &&
        node.callee.name === 'httpStatusText' &&
        (facts.callsHttpStatusText = true)
      ),
  }).visit(parse(file, source));
  return facts;
}

/**
 * The API contract's texts by id (src/api-contract/texts.ts: `export const texts = { key: { id, message }, … }`):
 * each text's key, the name the code reads it by.
 */
export function contractTextKeys(textsFile: string): Map<string, string> {
  const keyById = new Map<string, string>();
  new Visitor({
    VariableDeclarator: (node) => {
      if (node.id.type !== 'Identifier' || node.id.name !== 'texts' || !node.init) return;
      // The object itself, under any `as const` or `satisfies …`.
      let object = node.init;
      while (
        object.type === 'TSSatisfiesExpression' ||
        object.type === 'TSAsExpression' ||
        object.type === 'ParenthesizedExpression'
      )
        object = object.expression;
      if (object.type !== 'ObjectExpression') return;
      for (const property of object.properties) {
        if (
          property.type !== 'Property' ||
          property.key.type !== 'Identifier' ||
          property.value.type !== 'ObjectExpression'
        )
          continue;
        const id = property.value.properties.find(
          (field) => field.type === 'Property' && field.key.type === 'Identifier' && field.key.name === 'id',
        );
        if (id?.type === 'Property' && id.value.type === 'Literal' && typeof id.value.value === 'string')
          keyById.set(id.value.value, property.key.name);
      }
    },
  }).visit(parse(textsFile, readFileSync(textsFile, 'utf8')));
  return keyById;
}

/** The texts of the HTTP statuses (`http404`…), which httpStatusText(status) picks from by the answer's status. */
export const isStatusKey = (key: string) =>
  key.startsWith('http') && key.length > 4 && [...key.slice(4)].every((digit) => digit >= '0' && digit <= '9');
