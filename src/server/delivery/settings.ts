// How messages leave this server, from its variables (README.md beside this file; config-schema.ts declares
// each): SMTP for e-mail, an SMS provider, and the waits between tries. A half-done setting stops the start with a
// line that names what is missing, rather than letting codes vanish.
import { DEFAULT_RETRY_SECONDS } from '../domain/delivery.ts';
import type { EmailSettings } from './email.ts';
import type { SmsSettings } from './sms.ts';

export interface DeliveryConfig {
  /** SMTP_URL + SMTP_FROM; null: e-mails go to the server log (development transport). */
  email: EmailSettings | null;
  /** SMS_PROVIDER=twilio|webhook and its settings; null: SMS go to the server log. */
  sms: SmsSettings | null;
  /** DELIVERY_RETRY_SECONDS (default 10,30,120,600): the waits between tries; one more try than waits, then the message
   * has failed. */
  retrySeconds: number[];
}

/** The variables delivery is configured by; config-schema.ts declares each. */
export const DELIVERY_VARIABLES = [
  'SMTP_URL',
  'SMTP_FROM',
  'SMS_PROVIDER',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_FROM',
  'TWILIO_API_BASE',
  'SMS_WEBHOOK_URL',
  'SMS_WEBHOOK_METHOD',
  'SMS_WEBHOOK_TEMPLATE',
  'SMS_WEBHOOK_CONTENT_TYPE',
  'SMS_WEBHOOK_HEADERS',
  'DELIVERY_RETRY_SECONDS',
] as const;

/** Those variables as set, by name; an unset one is absent or undefined. */
export type DeliveryVariables = Partial<Record<(typeof DELIVERY_VARIABLES)[number], string>>;

/** The settings of `env` (the delivery's variables); a wrong or half-done setting throws an Error naming it. */
export function deliveryConfig(env: DeliveryVariables): DeliveryConfig {
  return { email: emailSettings(env), sms: smsSettings(env), retrySeconds: retrySeconds(env.DELIVERY_RETRY_SECONDS) };
}

/** Twilio's API, unless TWILIO_API_BASE points elsewhere. */
export const DEFAULT_TWILIO_API_BASE = 'https://api.twilio.com';
/** How the SMS webhook is called, unless SMS_WEBHOOK_METHOD says otherwise. */
export const DEFAULT_WEBHOOK_METHOD = 'POST';
/** The SMS webhook's body, unless SMS_WEBHOOK_TEMPLATE gives another. */
export const DEFAULT_WEBHOOK_TEMPLATE = '{"to":"{{to}}","text":"{{body}}"}';

const ADDRESS = /^[^@\s<>]+@[^@\s<>]+$/;
const NAMED_ADDRESS = /^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/;

/** SMTP_URL (smtp:// or smtps://, the credentials in it) and SMTP_FROM. */
function emailSettings(env: DeliveryVariables): EmailSettings | null {
  const url = env.SMTP_URL?.trim();
  const from = env.SMTP_FROM?.trim();
  if (!url) {
    if (from)
      throw new Error(
        'SMTP_FROM is set but SMTP_URL is not: set SMTP_URL=smtps://user:password@mail.example.com (or smtp:// for STARTTLS).',
      );
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      'SMTP_URL is not a URL: write it as smtps://user:password@mail.example.com[:465] or smtp://user:password@mail.example.com[:587].',
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//.`);
  if (!parsed.hostname) throw new Error('SMTP_URL names no host: smtps://user:password@mail.example.com.');
  if (!from || !(ADDRESS.test(from) || NAMED_ADDRESS.test(from))) {
    throw new Error(
      `SMTP_FROM must be the sender's address, e.g. SMTP_FROM="Coinvest <no-reply@example.com>"${from ? ` (not ${from})` : ''}.`,
    );
  }
  return { url, from };
}

const HTTP_URL = /^https?:\/\/[^/\s]+/;

/** SMS_PROVIDER and the settings it needs; every missing one is named. */
function smsSettings(env: DeliveryVariables): SmsSettings | null {
  const provider = env.SMS_PROVIDER?.trim();
  if (!provider) return null;
  const need = (names: (keyof DeliveryVariables)[]) => {
    const missing = names.filter((name) => !env[name]?.trim());
    if (missing.length) throw new Error(`SMS_PROVIDER=${provider} needs ${missing.join(', ')}.`);
  };
  if (provider === 'twilio') {
    need(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']);
    const apiBase = env.TWILIO_API_BASE?.trim() || DEFAULT_TWILIO_API_BASE;
    if (!HTTP_URL.test(apiBase)) throw new Error(`TWILIO_API_BASE=${apiBase} is not an http(s) URL.`);
    return {
      provider,
      accountSid: env.TWILIO_ACCOUNT_SID!.trim(),
      authToken: env.TWILIO_AUTH_TOKEN!.trim(),
      from: env.TWILIO_FROM!.trim(),
      apiBase,
    };
  }
  if (provider === 'webhook') {
    need(['SMS_WEBHOOK_URL']);
    const url = env.SMS_WEBHOOK_URL!.trim();
    if (!HTTP_URL.test(url)) throw new Error(`SMS_WEBHOOK_URL=${url} is not an http(s) URL.`);
    const method = (env.SMS_WEBHOOK_METHOD?.trim() || DEFAULT_WEBHOOK_METHOD).toUpperCase();
    if (method !== 'GET' && method !== 'POST' && method !== 'PUT')
      throw new Error(`SMS_WEBHOOK_METHOD=${method} must be GET, POST or PUT.`);
    const template = env.SMS_WEBHOOK_TEMPLATE?.trim() || DEFAULT_WEBHOOK_TEMPLATE;
    if (method === 'GET' && !url.includes('{{body}}'))
      throw new Error('SMS_WEBHOOK_METHOD=GET sends no body: put {{to}} and {{body}} in SMS_WEBHOOK_URL.');
    if (method !== 'GET' && !template.includes('{{body}}') && !url.includes('{{body}}'))
      throw new Error('SMS_WEBHOOK_TEMPLATE must contain {{body}} (and usually {{to}}).');
    const contentType =
      env.SMS_WEBHOOK_CONTENT_TYPE?.trim() ||
      (template.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded');
    return { provider, url, method, template, contentType, headers: webhookHeaders(env.SMS_WEBHOOK_HEADERS) };
  }
  throw new Error(
    `SMS_PROVIDER=${provider} is not known: twilio or webhook (unset: codes by SMS go to the server log).`,
  );
}

/** SMS_WEBHOOK_HEADERS: a JSON object of strings (an API key, say). */
function webhookHeaders(value: string | undefined): Record<string, string> {
  if (!value?.trim()) return {};
  let headers: unknown;
  try {
    headers = JSON.parse(value);
  } catch {
    headers = null;
  }
  if (
    !headers ||
    typeof headers !== 'object' ||
    Array.isArray(headers) ||
    Object.values(headers).some((item) => typeof item !== 'string')
  ) {
    throw new Error('SMS_WEBHOOK_HEADERS must be a JSON object of strings, e.g. {"Authorization":"Bearer …"}.');
  }
  return headers as Record<string, string>;
}

/** DELIVERY_RETRY_SECONDS: waits in seconds, comma-separated. */
function retrySeconds(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_RETRY_SECONDS];
  const waits = value.split(',').map((part) => Number(part.trim()));
  if (waits.some((wait) => !Number.isFinite(wait) || wait < 0))
    throw new Error(`DELIVERY_RETRY_SECONDS=${value} must be seconds separated by commas, e.g. 10,30,120,600.`);
  return waits;
}

/** One line for the start banner: where e-mail and SMS go (no secrets). */
export function describeDelivery({ email, sms }: DeliveryConfig): string {
  const mail = email ? `e-mail by SMTP via ${new URL(email.url).host}` : 'e-mail to the server log (no SMTP_URL)';
  const text = sms
    ? sms.provider === 'twilio'
      ? `SMS by Twilio via ${new URL(sms.apiBase).host}`
      : `SMS by webhook to ${new URL(sms.url.replace(/\{\{\s*\w+\s*\}\}/g, 'x')).host}`
    : 'SMS to the server log (no SMS_PROVIDER)';
  return `${mail}, ${text}`;
}
