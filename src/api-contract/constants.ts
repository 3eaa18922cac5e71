// The product's business constants and limits (timeouts, delays, lengths, caps, the app version) and its fixed
// lists (locales, currencies, Thai banks). One home each.

export const APP_VERSION = 101;
export const PAGE_LOAD_TIMEOUT_MS = 120_000;
export const REQUEST_TIMEOUT_MS = 60_000;
export const LOADING_HIDE_DELAY_MS = 200;
export const TOKEN_REDIRECT_DELAY_MS = 800;
export const TOAST_MS = 1500;
/** A call fails with 'Too many requests!' after this many attempts. */
export const MAX_ATTEMPTS = 5;
export const CODE_LENGTH = 6;
export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_MINUTES = 10;
export const MIN_OPTION_USDT = '1';
export const HASH_MIN_LENGTH = 60;
export const QUICK_REDEMPTION_DAILY_MAX_USDT = '30000000';
export const AREA_CODE = '66';
export const THEME_COLOR = '#00bbfe';
export const HISTORY_LENGTH = 10;
export const UPLOAD_MAX_COUNT = 52;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Ours: the most pixels a picture may declare, 50 megapixels (200 MB once a browser opens it as RGBA). More than any
 * phone camera's default and far more than the app sends (1600 px a side at most); fewer than a decompression bomb
 * needs, whose few compressed megabytes unpack into gigabytes in the browser of the reviewer who opens it.
 */
export const UPLOAD_MAX_PIXELS = 50_000_000;
/** The largest form or JSON body the server reads; a larger one answers 413. */
export const BODY_MAX_BYTES = 1024 * 1024;
export const SWIPER_INTERVAL_MS = 3000;

export const LOCALES = ['en', 'zh', 'th', 'jp', 'ar', 'hi'] as const;
export type Locale = (typeof LOCALES)[number];
/** Thai is the fallback locale. */
export const FALLBACK_LOCALE: Locale = 'th';
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  zh: '中文',
  th: 'ไทย',
  jp: '日本語',
  ar: 'العربية',
  hi: 'हिन्दी',
};

/** Display currencies a user can choose; baht is the base currency. */
export const CURRENCIES = ['THB', 'USD', 'CNY', 'JPY', 'INR', 'AED', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'THB';

/** Where a certification stands: not certified → under review → verified, or rejected. */
export const VERIFICATION_STATUSES = ['none', 'review', 'verified', 'rejected'] as const;
/** The chains a wallet address or a crypto recharge travels on. */
export const CHAINS = ['TRC20', 'ERC20', 'BEP20', 'BTC'] as const;
/** Thai banks for withdraw and bank cards, by code. */
export const BANK_CODES = [
  'BBL',
  'BBC',
  'KTB',
  'BAY',
  'KBANK',
  'CITI',
  'TTB',
  'SCB',
  'NBANK',
  'KKP',
  'GSB',
  'GHB',
  'BAAC',
] as const;

/** The banks' names as shown next to their codes (proper names: not translated). */
export const BANK_NAMES: Record<(typeof BANK_CODES)[number], string> = {
  BBL: 'Bangkok Bank',
  BBC: 'Bangkok Bank of Commerce',
  KTB: 'Krungthai Bank',
  BAY: 'Bank of Ayudhya (Krungsri)',
  KBANK: 'Kasikornbank',
  CITI: 'Citibank Thailand',
  TTB: 'TMBThanachart Bank',
  SCB: 'Siam Commercial Bank',
  NBANK: 'Thanachart Bank',
  KKP: 'Kiatnakin Phatra Bank',
  GSB: 'Government Savings Bank',
  GHB: 'Government Housing Bank',
  BAAC: 'Bank for Agriculture and Agricultural Cooperatives',
};
export type BankCode = (typeof BANK_CODES)[number];
/** Payouts to a bank card are made in baht (the banks are Thai). */
export const BANK_PAYOUT_CURRENCY: Currency = 'THB';

/** At most this many bank cards and wallets per account. */
export const MAX_BANK_CARDS = 5;
export const MAX_WALLETS = 10;
/** At most this many recharges waiting for review per account. */
export const MAX_PENDING_RECHARGES = 5;

/**
 * The most UTF-16 code units one character as a reader counts it may take in a length rule: a Thai letter with its
 * vowel and tone marks is 2–4, a Devanagari conjunct 3–6, an emoji of a family 11 (Unicode Standard Annex 29's grapheme
 * clusters). The bound keeps a value of stacked marks from weighing kilobytes; a form's field takes this many units
 * (`unitsFor`) so that typing is never cut in the middle of a character, and the rule's message says what is wrong.
 */
export const UNITS_PER_CHARACTER = 8;

/** The code units a field of `max` characters takes at most (the `maxLength` of its input). */
export const unitsFor = (max: number) => max * UNITS_PER_CHARACTER;

/** Most characters, as a reader counts them (visible-text.ts `characterCount`), of a person's real name
 * (certification, a bank card's holder), a nickname and a wallet's alias. */
export const REAL_NAME_MAX = 60;
export const NICKNAME_MAX = 20;
export const WALLET_ALIAS_MAX = 30;

/**
 * How long the server keeps a write's Idempotency-Key with its answer, counted from when it received it (ms).
 * Payment APIs keep theirs a day (Stripe removes keys at least 24 hours old); this app keeps a funds write whose answer
 * was lost on the device until sign-out and asks about it whenever it is online and signed in, and a session unused
 * for 30 days ends (SESSION_IDLE_DAYS): 32 days cover every write the app can still ask about while the session it was
 * sent in lives, with the margin below for the device's clock.
 */
export const IDEMPOTENCY_KEY_RETENTION_MS = 32 * 86_400_000;

/**
 * How far a device's clock may be off the server's and still be taken at its word (ms): a day covers a clock set in
 * the wrong time zone (up to 14 hours off UTC).
 */
export const SENT_AT_SKEW_MS = 86_400_000;

/**
 * Whether a write first sent at `sentAt` (ms, UTC, the device's clock) may have had its key deleted by `now` (ms, the
 * clock that reads it): sent before the retention horizon less the skew margin, or claimed later than `now` plus that
 * margin (a clock that cannot be trusted). The server answers such a key, when not found, `expired` (write-outcome.ts);
 * the app no longer sends the same write again under it (lib/api.ts), and a lost write that old it cannot ask about
 * is told to the customer as too old to check.
 */
export const keyMayBeDeleted = (sentAt: number, now: number): boolean =>
  !Number.isFinite(sentAt) ||
  sentAt < now - IDEMPOTENCY_KEY_RETENTION_MS + SENT_AT_SKEW_MS ||
  sentAt > now + SENT_AT_SKEW_MS;
