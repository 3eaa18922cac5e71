// Help and company pages: pages of text (company profile, intro, FAQ) kept per key and language,
// so they open offline; the system config's service link and web-view allowlist.
import { config } from '../../api-contract/content.ts';
import {
  contentPage,
  webViewHosts,
  allowedWebViewUrl,
  WEBVIEW_HOSTS_KEY,
  type ContentPage,
  type ContentPageKey,
} from '../../api-contract/support.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { api } from '../../lib/api.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { persistedStore, storeHydrated } from '../../lib/storage.ts';

export const supportState = persistedStore('support', {
  /** `${key}:${locale}` → the page last answered for it. */
  pages: {} as Record<string, ContentPage>,
  serviceUrl: '',
  hosts: [] as string[],
  /** The system config has been read at least once (the allowlist is known). */
  configLoaded: false,
});

/** Where a page is kept: one entry per key and language. */
export const pageKey = (key: ContentPageKey) => `${key}:${currentLocale()}`;

export async function loadContentPage(key: ContentPageKey): Promise<void> {
  await storeHydrated(supportState);
  const stored = pageKey(key);
  const page = await api(contentPage, { key, lang: currentLocale() }, { loading: !supportState.pages[stored] });
  supportState.pages[stored] = page;
}

export async function loadSupportConfig(): Promise<void> {
  await storeHydrated(supportState);
  const system = await api(config, { act: 'system' }, { loading: !supportState.configLoaded });
  Object.assign(supportState, {
    serviceUrl: (system.service_url ?? '').trim(),
    hosts: webViewHosts(system[WEBVIEW_HOSTS_KEY]),
    configLoaded: true,
  });
}

/** The web-view route that opens `url`. */
export const webViewRoute = (url: string) => `${ROUTES.webView}?url=${encodeURIComponent(url)}`;

export type ServiceTarget = { kind: 'none' } | { kind: 'webview'; route: string } | { kind: 'tab'; url: string };

/**
 * Where the service link opens: in the web-view when it is https on the allowlist,
 * otherwise in a new browser tab — but only an http(s) address; anything else is not opened.
 */
export function serviceTarget(serviceUrl: string, hosts: readonly string[]): ServiceTarget {
  if (!serviceUrl) return { kind: 'none' };
  if (allowedWebViewUrl(serviceUrl, hosts)) return { kind: 'webview', route: webViewRoute(serviceUrl) };
  try {
    const url = new URL(serviceUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? { kind: 'tab', url: url.href } : { kind: 'none' };
  } catch {
    return { kind: 'none' };
  }
}

/** A page body's paragraphs (blank-line separated); in the FAQ, each is a question and its answer. */
export const paragraphs = (body: string) =>
  body
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);

export function questionAndAnswer(paragraph: string): { question: string; answer: string } {
  const [question = '', ...answer] = paragraph.split('\n');
  return { question: question.trim(), answer: answer.join('\n').trim() };
}
