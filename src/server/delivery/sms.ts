// SMS through an HTTP provider, one of:
// - Twilio's Messages API: POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json, form fields
//   To, From, Body, HTTP Basic auth with the Account SID and auth token; 201 Created on success,
//   else a JSON error { code, message, more_info, status };
// - a generic webhook: a URL, a method and a body template with {{to}} and {{body}} placeholders.
import type { OutboxRow, Outcome, Transport } from './transport.ts';
import { canonicalMobile } from '../domain/phone-numbers.ts';

/** The `To` of a message: the number in E.164, as providers take it (a message queued before numbers were stored in
 * E.164 is read the same way; a text that is no mobile number goes as it is, for the provider to refuse). */
export const smsTo = (target: string) => canonicalMobile(target) ?? target;

export interface TwilioSettings {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  from: string;
  /** TWILIO_API_BASE: https://api.twilio.com, or a stand-in. */
  apiBase: string;
}

export interface WebhookSettings {
  provider: 'webhook';
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The body, placeholders filled (escaped for JSON when the content type is JSON, form-encoded when it is a form). */
  template: string;
  contentType: string;
  headers: Record<string, string>;
}

export type SmsSettings = TwilioSettings | WebhookSettings;

const TIMEOUT_MS = 15_000;

export function smsTransport(settings: SmsSettings): Transport {
  return {
    send: (row) => (settings.provider === 'twilio' ? sendByTwilio(settings, row) : sendByWebhook(settings, row)),
  };
}

async function sendByTwilio(settings: TwilioSettings, row: OutboxRow): Promise<Outcome> {
  const url = `${settings.apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const body = new URLSearchParams({ To: smsTo(row.target), From: settings.from, Body: row.body });
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return post(
    url,
    { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body },
    async (response) => {
      const answer = (await response.json().catch(() => null)) as { code?: number; message?: string } | null;
      return answer?.message
        ? `Twilio ${answer.code ?? ''} ${answer.message}`.replace(/\s+/g, ' ')
        : `HTTP ${response.status}`;
    },
  );
}

async function sendByWebhook(settings: WebhookSettings, row: OutboxRow): Promise<Outcome> {
  const values = { to: smsTo(row.target), body: row.body };
  const url = fill(settings.url, values, encodeURIComponent);
  const escape = /json/i.test(settings.contentType)
    ? (value: string) => JSON.stringify(value).slice(1, -1)
    : /x-www-form-urlencoded/i.test(settings.contentType)
      ? encodeURIComponent
      : (value: string) => value;
  const withBody = settings.method !== 'GET';
  return post(
    url,
    {
      method: settings.method,
      headers: { ...settings.headers, ...(withBody ? { 'content-type': settings.contentType } : {}) },
      body: withBody ? fill(settings.template, values, escape) : undefined,
    },
    async (response) => `HTTP ${response.status} ${(await response.text().catch(() => '')).slice(0, 200)}`.trim(),
  );
}

/** {{to}} and {{body}} replaced by their escaped values. */
export const fill = (template: string, values: Record<'to' | 'body', string>, escape: (value: string) => string) =>
  template.replace(/\{\{\s*(to|body)\s*\}\}/g, (_, name: 'to' | 'body') => escape(values[name]));

/** 2xx: sent. 408, 429 and 5xx, a time-out or a refused connection: tried again; another 4xx will not mend by itself.
 * */
async function post(
  url: string,
  init: RequestInit,
  describe: (response: Response) => Promise<string>,
): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { sent: false, retry: true, error: [cause, (error as Error).message].filter(Boolean).join(': ') };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { sent: true };
  }
  const error = await describe(response);
  const retry =
    response.status === 408 ||
    response.status === 429 ||
    response.status >= 500 ||
    response.status === 401 ||
    response.status === 403;
  return { sent: false, retry, error };
}
