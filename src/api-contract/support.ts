// Help and company pages: pages of text by key in the request language (our addition:
// `/content/page`), and the web-view's allowlist of hosts (`/other/config act=system` key
// `webview_hosts`), with the one rule deciding which URLs the web-view may open.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { shape } from './answers.ts';
import { LOCALES } from './constants.ts';
import { texts } from './texts.ts';

export const CONTENT_PAGE_KEYS = ['about', 'intro', 'faq'] as const;
export type ContentPageKey = (typeof CONTENT_PAGE_KEYS)[number];

export const ContentPage = shape({
  key: v.picklist(CONTENT_PAGE_KEYS),
  /** The language of the text sent: the one asked for, or English when it has none. */
  lang: v.string(),
  title: v.string(),
  /** Plain text; paragraphs are separated by a blank line. In the FAQ each paragraph is a question (its first line) and
   * its answer (the rest). */
  body: v.string(),
});
export type ContentPage = v.InferOutput<typeof ContentPage>;

/**
 * A page in the request language (`lang` header), falling back to English. The app also sends
 * `lang` in the query so a cached answer is kept per language.
 */
export const contentPage = get(
  '/content/page',
  v.object({
    key: v.picklist(CONTENT_PAGE_KEYS, texts.invalidRequest.id),
    lang: v.optional(v.picklist(LOCALES, texts.invalidRequest.id)),
  }),
  returns(ContentPage),
  { cache: 'public', auth: false },
);

/** The system config key listing the hosts the web-view may open, comma-separated. */
export const WEBVIEW_HOSTS_KEY = 'webview_hosts';

/** "a.com, B.org ,," → ['a.com', 'b.org']. */
export const webViewHosts = (setting: string | undefined): string[] =>
  (setting ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);

/**
 * The URL the web-view may open, or null: only https, no user name or password in it, on the
 * default port, and a host named exactly on the allowlist (a subdomain of an allowed host is not
 * allowed unless it is listed itself). The host is read by the URL parser, never from the text, so
 * `https://allowed.com@evil.com` and `https://evil.com/?allowed.com` are refused.
 */
export function allowedWebViewUrl(raw: string, allowedHosts: readonly string[]): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return allowedHosts.includes(host) ? url : null;
}
