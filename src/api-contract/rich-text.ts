// The one sanitiser of rich text (activity bodies): an allowlist, applied when the operator saves
// and again when the text is served. Everything is re-serialised by us: a tag on the list is
// rebuilt with only its allowed attributes, quoted by us; anything else is dropped (its text kept,
// except inside script-like elements) and every other '<', '>' and bare '&' is escaped.
const ALLOWED_TAGS = new Set(['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'img']);
const VOID_TAGS = new Set(['br', 'img']);
/** Their content is code or markup, never text to show. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'iframe',
  'noscript',
  'xmp',
  'template',
  'object',
  'svg',
  'math',
  'noembed',
  'noframes',
  'select',
  'plaintext',
]);

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>/;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const ENTITY = /&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
};

function decodeEntities(value: string): string {
  return value.replace(/&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10));
    return NAMED[body.toLowerCase()] ?? whole;
  });
}
const safeCodePoint = (code: number) => (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd');

const escapeText = (text: string) => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The URL as the browser would read it, accepted only as an https link (or a site path for pictures). */
function safeUrl(raw: string, allowSitePath: boolean): string | null {
  const url = decodeEntities(raw).trim();
  // Control characters and spaces inside a scheme are how "java\tscript:" slips past naive checks.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(url)) return null;
  if (/^https:\/\/[^/?#]+/i.test(url)) return url;
  if (allowSitePath && /^\/(?!\/)/.test(url)) return url;
  return null;
}

function rebuildTag(name: string, attributes: string): string {
  if (name === 'a') {
    const href = attributeValue(attributes, 'href');
    const safe = href === null ? null : safeUrl(href, false);
    return safe ? `<a href="${escapeAttribute(safe)}" rel="noopener noreferrer" target="_blank">` : '<a>';
  }
  if (name === 'img') {
    const src = attributeValue(attributes, 'src');
    const safe = src === null ? null : safeUrl(src, true);
    if (!safe) return '';
    const alt = attributeValue(attributes, 'alt');
    return `<img src="${escapeAttribute(safe)}" alt="${escapeAttribute(decodeEntities(alt ?? ''))}">`;
  }
  return `<${name}>`;
}

function attributeValue(attributes: string, wanted: string): string | null {
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    if (match[1]!.toLowerCase() === wanted) return match[2] ?? match[3] ?? match[4] ?? '';
  }
  return null;
}

/** Rich text reduced to the allowlist: p, br, b, strong, i, em, u, h3, h4, ul, ol, li, a[href https], img[src https or
 * /path]. */
export function sanitizeRichText(html: string): string {
  let out = '';
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt < 0) {
      out += escapeText(keepEntities(html.slice(at)));
      break;
    }
    out += escapeText(keepEntities(html.slice(at, lt)));
    const rest = html.slice(lt);
    if (rest.startsWith('<!--')) {
      const end = html.indexOf('-->', lt + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    if (rest.startsWith('<!') || rest.startsWith('<?')) {
      const end = html.indexOf('>', lt);
      at = end < 0 ? html.length : end + 1;
      continue;
    }
    const tag = TAG.exec(rest);
    if (!tag) {
      out += '&lt;';
      at = lt + 1;
      continue;
    }
    at = lt + tag[0].length;
    const closing = tag[1] === '/';
    const name = tag[2]!.toLowerCase();
    if (!closing && DROPPED_WITH_CONTENT.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, 'i').exec(html.slice(at));
      at = close ? at + close.index + close[0].length : html.length;
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) out += VOID_TAGS.has(name) ? '' : `</${name}>`;
    else out += rebuildTag(name, tag[3] ?? '');
  }
  return out;
}

/** Text with its well-formed entities kept and every other '&' escaped. */
function keepEntities(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] !== '&') {
      out += text[index];
      continue;
    }
    ENTITY.lastIndex = index;
    out += ENTITY.test(text) ? '&' : '&amp;';
  }
  return out;
}
