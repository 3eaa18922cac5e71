// The customer service link and the hosts the web-view may open: two system settings the app
// reads through /config (act `system`). The link opens in the web-view only when it is an https
// page of a listed host (api-contract/support.ts), else in a new tab; no link: the service page shows the FAQ.
import { WEBVIEW_HOSTS_KEY, webViewHosts } from '../../api-contract/support.ts';
import type { Executor } from '../db/connection.ts';
import { configValue, setConfigEntry } from './config-entries.ts';
import { Refusal } from './refusal.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';

const SYSTEM = 'system';
const SERVICE_URL_KEY = 'service_url';

/** A host name as the allowlist holds it: lower case labels joined by dots. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The service link ('' when there is none) and the web-view's hosts, as the app reads them. */
export async function serviceLink(db: Executor): Promise<{ url: string; hosts: string[] }> {
  const url = (await configValue(db, SYSTEM, SERVICE_URL_KEY)) ?? '';
  const hosts = webViewHosts(await configValue(db, SYSTEM, WEBVIEW_HOSTS_KEY));
  return { url, hosts };
}

/** Sets the service link: an http(s) address, or '' for none. */
export async function setServiceUrl(db: Executor, url: string): Promise<void> {
  if (url && (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)))
    throw new Refusal(consoleTexts.consoleServiceLinkFormat.id);
  await setConfigEntry(db, SYSTEM, SERVICE_URL_KEY, url);
}

/** Sets the hosts the web-view may open from a comma-separated list ('' for none); a name that is not a host name is
 * refused. */
export async function setWebViewHosts(db: Executor, list: string): Promise<void> {
  const hosts = webViewHosts(list);
  const wrong = hosts.find((host) => !HOST_NAME.test(host));
  // The name goes in as a value: written into the text, braces in it would read as placeholders.
  if (wrong !== undefined) throw new Refusal(consoleTexts.consoleHostFormat.id, { host: wrong });
  await setConfigEntry(db, SYSTEM, WEBVIEW_HOSTS_KEY, hosts.join(','));
}
