// An amount and its unit stay one left-to-right run on every customer screen. In right-to-left text (Arabic) a number
// and a Latin code written as two nodes side by side — `<span>{amount}</span> USDT`, `{amount} {asset}` — become two
// runs of the paragraph, and the bidi algorithm lays them out as "USDT 80.00". The app writes such a pair through
// src/ui/Amount.tsx (one dir="ltr" element holding both), or inside another dir="ltr" element. This scan of the
// customer app's JSX (src/app, src/features, src/ui; the operator console is English only) names each pair written
// otherwise, file:line, so a new screen cannot bring the swap back; and each string built as `${amount} USDT` outside
// such an element (a text node of one string is still two runs).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { readCatalog } from './catalog-files.ts';

const ROOT = resolve('.');
const FOLDERS = ['src/app', 'src/features', 'src/ui'];

/** Upper-case words that follow an element in JSX text without being a unit of an amount. */
const NOT_UNITS = new Set([
  'VIP',
  'ID',
  'PIN',
  'QR',
  'TP',
  'SL',
  'API',
  'URL',
  'OK',
  'UTC',
  'KYC',
  'TOTP',
  'PDF',
  'CSV',
  'HTTP',
  'MA',
  'EMA',
  'BOLL',
]);
/** JSX text that starts with a space and then an asset code or currency ("USDT", "BTC", "THB"). */
const CODE_AFTER_SPACE = /^\s+([A-Z][A-Z0-9]{1,9})(?![A-Za-z0-9])/;
/** A template literal's end that is a space and an asset code: `${formatUsdt(payout)} USDT`. */
const CODE_AT_END = /\s[A-Z][A-Z0-9]{1,9}$/;
/** The names an expression holding a unit goes by: `{asset}`, `{order.coin}`, `{fill.fee_asset}`, `{QUOTE_ASSET}`. */
const UNIT_NAME = /^(asset|code|coin|currency|unit|symbol|USDT|QUOTE_ASSET)$|_asset$|_currency$|Asset$|Currency$/;

/**
 * Strings of an amount and its unit built outside JSX and shown only inside an element that keeps them whole, by
 * file and code: a blind box prize ("1.5 USDT") goes into `<bdi dir="ltr">`, or a `<bdi>` whose direction comes from
 * its first letter, the unit's.
 */
const SHOWN_WHOLE: [file: string, code: string][] = [
  ['src/features/activities/ActivityParts.tsx', '`${value} ${win.asset}`'],
  ['src/features/blindbox/BlindBoxParts.tsx', '`${value} ${asset}`'],
];

function tsxFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

/** Classes whose style sets `direction: ltr` with `unicode-bidi: isolate` (src/ui/ui.css, lockup.css). */
const LTR_CLASS = /(?:^|[\s`'"])(opt-num|amount-range-num|lockup-num)(?=[\s`'"$]|$)/;

/**
 * Whether an element keeps its content left to right: `dir="ltr"`, a class styled so, or a component that is one
 * (Amount, Ltr).
 */
function keepsLeftToRight(node: ts.JsxElement | ts.JsxFragment): boolean {
  if (!ts.isJsxElement(node)) return false;
  const tag = node.openingElement.tagName.getText();
  if (tag === 'Ltr' || tag === 'Amount') return true;
  return node.openingElement.attributes.properties.some((attribute) => {
    if (!ts.isJsxAttribute(attribute) || !attribute.initializer) return false;
    const name = attribute.name.getText();
    const value = attribute.initializer.getText();
    return (name === 'dir' && value === '"ltr"') || (name === 'className' && LTR_CLASS.test(value));
  });
}

/** Whether an expression names a unit (`asset`, `order.fee_asset`). */
function isUnit(expression: ts.Expression | undefined): boolean {
  if (!expression) return false;
  if (ts.isIdentifier(expression)) return UNIT_NAME.test(expression.text);
  if (ts.isPropertyAccessExpression(expression)) return UNIT_NAME.test(expression.name.text);
  return false;
}

/**
 * Whether a template literal (not a tagged one: `t` and `msg` are messages, ordered by each translation) writes an
 * amount and its unit as one string: `${formatUsdt(payout)} USDT`, `+${amount} ${task.asset}`. As a text node that
 * string is still two runs; only a left-to-right element around it keeps it whole.
 */
function endsInUnit(template: ts.TemplateExpression): boolean {
  const last = template.templateSpans.at(-1)!;
  if (CODE_AT_END.test(last.literal.text)) return true;
  const before = template.templateSpans.at(-2)?.literal.text ?? template.head.text;
  return last.literal.text === '' && /\s$/.test(before) && isUnit(last.expression);
}

type Piece = { text: string; at: number } | { node: ts.Node; at: number };

/** The places in one file where an amount and its unit are separate runs: "path:line: the code". */
function pairsApart(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (at: number) => {
    const { line } = source.getLineAndCharacterOfPosition(at);
    found.push(`${relative(ROOT, path)}:${line + 1}: ${source.text.split('\n')[line]!.trim()}`);
  };
  const visit = (node: ts.Node, ltr: boolean) => {
    if (ts.isJsxElement(node) || ts.isJsxFragment(node)) {
      const inside = ltr || keepsLeftToRight(node);
      if (!inside) {
        // The children as text (JSX text and `{' '}`) and nodes, adjacent text joined.
        const pieces: Piece[] = [];
        for (const child of node.children) {
          const text = ts.isJsxText(child)
            ? child.text
            : ts.isJsxExpression(child) && child.expression && ts.isStringLiteralLike(child.expression)
              ? child.expression.text
              : null;
          const last = pieces.at(-1);
          if (text === null) pieces.push({ node: child, at: child.getStart(source) });
          else if (last && 'text' in last) last.text += text;
          else pieces.push({ text, at: child.getStart(source) });
        }
        pieces.forEach((piece, index) => {
          if (!('node' in piece)) return;
          const next = pieces[index + 1];
          if (!next || !('text' in next)) return;
          const code = CODE_AFTER_SPACE.exec(next.text)?.[1];
          if (code && !NOT_UNITS.has(code)) return report(piece.at);
          const after = pieces[index + 2];
          if (/^\s+$/.test(next.text) && after && 'node' in after && ts.isJsxExpression(after.node))
            if (isUnit(after.node.expression)) report(piece.at);
        });
      }
      node.forEachChild((child) => visit(child, inside));
      return;
    }
    if (ts.isTemplateExpression(node) && !ts.isTaggedTemplateExpression(node.parent) && !ltr && endsInUnit(node)) {
      const file = relative(ROOT, path);
      if (!SHOWN_WHOLE.some(([whole, code]) => whole === file && node.getText(source) === code))
        report(node.getStart(source));
    }
    node.forEachChild((child) => visit(child, ltr));
  };
  visit(source, false);
  return found;
}

it('no customer screen writes an amount and its unit as two runs (use <Amount value unit />)', () => {
  const files = FOLDERS.flatMap((folder) => tsxFiles(join(ROOT, folder)));
  expect(files.length).toBeGreaterThan(100);
  expect(files.flatMap(pairsApart)).toEqual([]);
});

/**
 * Messages of the customer app that put an amount beside its unit in their own words and are shown only inside a
 * left-to-right field, as its placeholder (AmountField is dir="ltr"), so the pair stays in order there.
 */
const IN_LEFT_TO_RIGHT_FIELDS = new Set(['At least {minimum} USDT', 'At least {0} USDT']);
/** A placeholder and an asset code side by side in a message's text, either way round ("{start} USDT", "USDT {0}"). */
const PLACEHOLDER_BESIDE_CODE =
  /\{\w+\}\s+([A-Z][A-Z0-9]{1,9})(?![A-Za-z0-9])|(?<![A-Za-z0-9])([A-Z][A-Z0-9]{1,9})\s+\{\w+\}/g;

/** A message's text without what its elements enclose (`<0>{amount} USDT</0>`: the element decides its direction). */
const outsideElements = (text: string): string => {
  let left = text;
  for (let before = ''; before !== left;) [before, left] = [left, left.replace(/<(\d+)>[^<>]*<\/\1>/g, '<>')];
  return left;
};

it("no customer screen's message puts an amount beside its unit as plain text, in any language", () => {
  // A translation orders the words itself: "{start} virtual USDT" in English becomes "{start} USDT افتراضي" in
  // Arabic, the same two runs drawn "USDT 10,000.00". The amount belongs in the message as one element (<Amount> as
  // `<0/>`, or a value that is one), which the translation places whole.
  const found = ['en', 'zh', 'jp', 'ar', 'th', 'hi'].flatMap((locale) =>
    Object.values(readCatalog(locale)).flatMap((entry) => {
      const files = (entry as { origin?: [string, number | null][] }).origin?.map(([file]) => file) ?? [];
      if (!files.some((file) => FOLDERS.some((folder) => file.startsWith(`${folder}/`)))) return [];
      if (entry.message && IN_LEFT_TO_RIGHT_FIELDS.has(entry.message)) return [];
      return [...new Set([entry.message, entry.translation])].flatMap((text) =>
        [...outsideElements(text ?? '').matchAll(PLACEHOLDER_BESIDE_CODE)]
          .filter(([, after, before]) => !NOT_UNITS.has((after ?? before)!))
          .map(([pair]) => `${locale}: "${entry.message}" has "${pair}"`),
      );
    }),
  );
  expect(found).toEqual([]);
});
