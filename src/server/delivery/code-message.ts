// A verification code as the customer receives it, in their language: a short SMS, or an e-mail
// with a subject, a plain-text body and an HTML body in the product's colours (right to left for
// Arabic). Made when the code is queued, so the queue row holds exactly what is sent.
// The anti-phishing code of the account the address belongs to (none for an address no account has
// yet: a registration, a new e-mail address) stands in a fixed place of every e-mail: the first line of
// the text ("Your anti-phishing code: …", then an empty line) and a band at the top of the HTML, right
// under the product's name. Not in the subject: a mailbox's list and a phone's lock screen show that.
// An SMS carries none (short, and read on the phone the code went to).
import { serverTexts } from '../../api-contract/server-texts.ts';
import { CODE_TTL_MINUTES, THEME_COLOR, type Locale } from '../../api-contract/constants.ts';
import { translator } from '../i18n.ts';
import { isolate } from '../../api-contract/visible-text.ts';

export const PRODUCT_NAME = 'Coinvest';
/** Text on the brand colour and the code's colour: the app's --on-theme and --theme-dark (ui.css), readable at 4.5:1
 * and more. */
const ON_THEME = '#06324a';
const THEME_DARK = '#0072a3';

export interface CodeMessage {
  subject: string;
  body: string;
  html: string | null;
}

export function codeMessage(
  channel: 'sms' | 'email',
  code: string,
  locale: Locale,
  antiPhishing: string | null = null,
): CodeMessage {
  const t = translator(locale);
  const line = t(serverTexts.codeMessage, { app: PRODUCT_NAME, code, minutes: CODE_TTL_MINUTES });
  if (channel === 'sms') return { subject: '', body: line, html: null };
  const subject = t(serverTexts.codeMailSubject, { app: PRODUCT_NAME });
  const ignore = t(serverTexts.codeMailIgnore);
  const guard = antiPhishing ? { label: t(serverTexts.antiPhishingLabel), code: antiPhishing } : null;
  // The code isolated, as <bdi> does in the HTML: it cannot turn the text around it.
  const first = guard ? `${guard.label}: ${isolate(guard.code)}\n\n` : '';
  const body = `${first}${line}\n\n${code}\n\n${ignore}\n\n— ${PRODUCT_NAME}\n`;
  return { subject, body, html: codeHtml({ locale, subject, line, code, ignore, guard }) };
}

/**
 * A queued message's text as the operator's outbox list shows it: an e-mail's anti-phishing line left
 * out (its payload says it has one), so the customer's code is shown to no one but them.
 */
export function bodyForOperator(row: { body: string; payload: unknown }): string {
  const payload = row.payload as { antiPhishing?: unknown } | null;
  if (payload?.antiPhishing !== true) return row.body;
  const end = row.body.indexOf('\n\n');
  return end < 0 ? '' : row.body.slice(end + 2);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function codeHtml({
  locale,
  subject,
  line,
  code,
  ignore,
  guard,
}: {
  locale: Locale;
  subject: string;
  line: string;
  code: string;
  ignore: string;
  guard: { label: string; code: string } | null;
}): string {
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  const lang = locale === 'jp' ? 'ja' : locale;
  const align = dir === 'rtl' ? 'right' : 'left';
  const font =
    "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai','Noto Sans Arabic','Noto Sans Devanagari','Noto Sans CJK SC',sans-serif";
  return `<!doctype html>
<html lang="${lang}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f6f9;font-family:${font};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f6f9;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" dir="${dir}" style="max-width:480px;background:#ffffff;border-radius:12px;">
<tr><td style="background:${THEME_COLOR};color:${ON_THEME};padding:18px 24px;font-size:20px;font-weight:700;text-align:${align};border-radius:12px 12px 0 0;">${PRODUCT_NAME}</td></tr>
${guard ? guardHtml(guard, align) : ''}<tr><td style="padding:24px;color:#1b2330;font-size:16px;line-height:1.5;text-align:${align};">
<p style="margin:0 0 16px;">${escapeHtml(line)}</p>
<p dir="ltr" style="margin:0 0 16px;text-align:center;font-size:32px;font-weight:700;letter-spacing:6px;color:${THEME_DARK};">${escapeHtml(code)}</p>
<p style="margin:0;color:#5f6b7a;font-size:14px;">${escapeHtml(ignore)}</p>
</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;
}

/** The anti-phishing band: the label and the customer's code, bold, on a light brand tint. */
const guardHtml = ({ label, code }: { label: string; code: string }, align: string) =>
  `<tr><td style="padding:12px 24px;background:#e5f7ff;color:#1b2330;font-size:15px;text-align:${align};">` +
  `${escapeHtml(label)}: <strong style="color:${THEME_DARK};"><bdi>${escapeHtml(code)}</bdi></strong></td></tr>\n`;
