// The document a browser's navigation gets: the built index.html in one language, with Home's and Markets' first
// screens rendered again with the slides and coins the server has now, and those answers inline
// (api-contract/first-data.ts) for the app's first render.
// - The language is the one the app starts in: its cookie (LOCALE_COOKIE, written by the app with its first-screen
//   hint), else the one the browser's Accept-Language picks, as the app picks from the browser's languages on a first
//   visit. The other languages' templates are left out: the built page holds every screen in six languages, and on a
//   slow phone each of them is markup to download and parse before the first paint.
// - A device whose hint names a language its cookie does not (a cookie cleared on its own) finds no screen in it, and
//   shows the brand's shell until the app renders, as a start with no hint does; the app then writes the cookie again.
// - The largest thing either data page paints (the first slide, a coin's row) then comes with the HTML, not after the
//   app's code and a call.
// Any other request for the page (the service worker keeping its copy, a fetch) gets the built file as it is, every
// language in it: a start from the worker's copy may be in any of them, and a price kept there would be shown later as
// if current. Data that is slow or fails never holds the page: it goes out as built, and the app loads the data itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../../api-contract/constants.ts';
import { acceptedLanguages, pickLanguage } from '../../api-contract/language-pick.ts';
import { acceptHeader } from '../../api-contract/accept-header.ts';
import { fileStamp } from '../build-info.ts';
import {
  FIRST_DATA_ID,
  FIRST_SCREENS_MODULE,
  cookieLocale,
  firstDataJson,
  templateLocale,
  type FirstData,
} from '../../api-contract/first-data.ts';

/** What the build's module for Node (FIRST_SCREENS_MODULE) offers the server. */
interface FirstScreens {
  renderDataScreens(locale: Locale, data: FirstData): { id: string; html: string }[];
}

/** The data of a document: the coins and every language's slides, read when asked. */
export type ReadFirstData = () => Promise<Omit<FirstData, 'at'>>;

/**
 * How long a navigation waits for the data before the page goes out as built: about one round trip of a phone on a slow
 * network, so a page with data is never later than the page without it would have been by much.
 */
export const FIRST_DATA_WAIT_MS = 250;
/**
 * How long a document serves every navigation in its language as made: its data is read at most this often per
 * language, not once per navigation (a burst of navigations on a busy server would otherwise each wait for a read, and
 * one slower than FIRST_DATA_WAIT_MS sends the page without data), and its `at` (the coin list's "as of") is never
 * older than this.
 */
const DOCUMENT_KEPT_MS = 1_000;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

interface Made {
  /** The build it was made from. */
  version: string;
  at: number;
  body: Buffer;
  br: Promise<Buffer>;
  gz: Promise<Buffer>;
}

/** The build in the web root: its page and its module for Node, and which files they were read from. */
interface Build {
  version: string;
  page: string;
  screens: FirstScreens;
}

/**
 * Serves `/` and `/index.html` from `root` as above. The build is read again when a deploy has put new files there: a
 * page left open across a deploy reloads into the new version. A build without the module, or one whose module fails
 * to load, is served as the files are (servePwa).
 */
export async function serveFirstDocument(
  app: FastifyInstance,
  root: string,
  read: ReadFirstData,
  now: () => number = Date.now,
): Promise<void> {
  const pageFile = join(root, 'index.html');
  const moduleFile = join(root, FIRST_SCREENS_MODULE);
  let loaded: { version: string; build: Promise<Build | null> } | null = null;

  /** The build as it is in the web root now, loaded once per version. */
  const currentBuild = (): Promise<Build | null> => {
    const [pageVersion, moduleVersion] = [fileStamp(pageFile), fileStamp(moduleFile)];
    if (pageVersion === null || moduleVersion === null) return Promise.resolve(null);
    const version = `${pageVersion}/${moduleVersion}`;
    if (loaded?.version !== version) {
      // Imported by a URL of its own per version: a module already imported is never read again.
      const build = import(`${pathToFileURL(moduleFile).href}?v=${encodeURIComponent(version)}`).then(
        (screens: FirstScreens) => ({ version, page: readFileSync(pageFile, 'utf8'), screens }),
        (error: unknown) => {
          app.log.warn({ err: error }, 'first screens: the build’s module did not load; the page goes out as built');
          return null;
        },
      );
      loaded = { version, build };
    }
    return loaded.build;
  };
  // Loaded at start, not at the first navigation.
  await currentBuild();

  // Per language: the document last made, and the one being made.
  const made = new Map<Locale, Made>();
  const making = new Map<Locale, Promise<Made | null>>();

  const make = async (locale: Locale): Promise<Made | null> => {
    const build = await currentBuild();
    if (!build) return null;
    const last = made.get(locale);
    if (last && last.version === build.version && now() - last.at < DOCUMENT_KEPT_MS) return last;
    const data = await read();
    const at = now();
    const html = documentWith(build.page, build.screens, { at: new Date(at).toISOString(), ...data }, locale);
    const body = Buffer.from(html);
    const params = { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length };
    const document = {
      version: build.version,
      at,
      body,
      br: brotli(body, { params }),
      gz: gzipped(body, { level: 6 }),
    };
    // A failed compression is only a larger answer: the page goes out plain.
    document.br.catch(() => undefined);
    document.gz.catch(() => undefined);
    made.set(locale, document);
    return document;
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['sec-fetch-mode'] !== 'navigate') return reply.sendFile('index.html');
    const locale =
      cookieLocale(request.headers.cookie) ??
      pickLanguage(LOCALES, FALLBACK_LOCALE, null, acceptedLanguages(request.headers['accept-language']));
    // One making at a time per language: the navigations that come meanwhile take the same document.
    let pending = making.get(locale);
    if (!pending) {
      pending = make(locale).finally(() => making.delete(locale));
      making.set(locale, pending);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const document = await Promise.race([
      pending,
      new Promise<null>((resolve) => (timer = setTimeout(resolve, FIRST_DATA_WAIT_MS, null))),
    ])
      .catch((error: unknown) => {
        request.log.warn({ err: error }, 'first screens: no data for the page; it goes out as built');
        return null;
      })
      .finally(() => clearTimeout(timer));
    if (!document) return reply.sendFile('index.html');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] = await encoded(document, accepted);
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding, accept-language, cookie, sec-fetch-mode');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };
  app.get('/', handler);
  app.get('/index.html', handler);
}

/** The body in the best encoding the browser takes (brotli, then gzip), or plain. */
async function encoded(document: Made, accepted: string): Promise<[string | null, Buffer]> {
  // A coding is taken unless its weight is 0; `*` stands for those not named.
  const codings = acceptHeader(accepted.toLowerCase());
  const weightOf = (name: string) =>
    (codings.find(({ token }) => token === name) ?? codings.find(({ token }) => token === '*'))?.weight ?? 0;
  const takes = (name: string) => weightOf(name) > 0;
  for (const [name, body] of [
    ['br', document.br],
    ['gzip', document.gz],
  ] as const) {
    if (!takes(name)) continue;
    const compressed = await body.catch(() => null);
    if (compressed) return [name, compressed];
  }
  return [null, document.body];
}

/**
 * `page` in `locale`: the first screens' templates of every other language left out, the data screens of `locale`
 * rendered with `data` in place of their built content, and the data inline before the head ends.
 */
export function documentWith(page: string, screens: FirstScreens, data: FirstData, locale: Locale): string {
  const rendered = new Map(screens.renderDataScreens(locale, data).map(({ id, html }) => [id, html]));
  let html = '';
  let done = 0;
  for (const template of topTemplates(page)) {
    const language = templateLocale(template.id);
    if (language !== null && language !== locale) {
      // With the whitespace before it: the line it stood on goes too.
      let from = template.start;
      while (from > done && /\s/.test(page[from - 1]!)) from--;
      html += page.slice(done, from);
      done = template.end;
    } else if (rendered.has(template.id)) {
      html += page.slice(done, template.contentStart) + rendered.get(template.id);
      rendered.delete(template.id);
      done = template.contentEnd;
    }
  }
  html += page.slice(done);
  if (rendered.size) throw new Error(`first screens: the page has no template ${[...rendered.keys()].join(', ')}`);
  const inline = `<script type="application/json" id="${FIRST_DATA_ID}">${firstDataJson(data)}</script>\n  </head>`;
  // (A function: a replacement string would read `$&` or `$'` in the data as patterns.)
  return html.replace('</head>', () => inline);
}

/**
 * The page's <template>s that have an id, each with where it and its content start and end. A screen may hold
 * templates of its own (React marks a part it renders only in the browser with an empty one): each is counted to its
 * own end, so a screen's content ends at its matching close.
 */
function topTemplates(
  page: string,
): { id: string; start: number; contentStart: number; contentEnd: number; end: number }[] {
  const OPEN = '<template';
  const CLOSE = '</template>';
  const found = [];
  for (let start = page.indexOf('<template id="'); start >= 0; start = page.indexOf('<template id="', start)) {
    const idStart = start + '<template id="'.length;
    const id = page.slice(idStart, page.indexOf('"', idStart));
    const contentStart = page.indexOf('>', idStart) + 1;
    let depth = 1;
    let at = contentStart;
    while (depth > 0) {
      const open = page.indexOf(OPEN, at);
      const close = page.indexOf(CLOSE, at);
      if (close < 0) throw new Error(`first screens: the template ${id} does not end`);
      if (open >= 0 && open < close) {
        depth++;
        at = open + OPEN.length;
      } else {
        depth--;
        at = close + CLOSE.length;
      }
    }
    found.push({ id, start, contentStart, contentEnd: at - CLOSE.length, end: at });
    start = at;
  }
  return found;
}
