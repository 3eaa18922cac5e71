// Where withdrawals go: bank cards and wallet addresses (the wallet calls are our additions; the product names
// the fields only). Every call reads or changes the caller's own only.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { PHONE, matching, otp, required } from './fields.ts';
import { email } from './email-address.ts';
import { BANK_CODES, CHAINS } from './constants.ts';
import { groupedNumber } from './grouped-number.ts';
import { asciiDigits } from './typed-digits.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { maxCharacters, personName, visibleText } from './visible-text.ts';
import { isoTime, nothing, shape, whole } from './answers.ts';

export const BankCard = shape({
  id: whole,
  real_name: v.string(),
  ifsc: v.string(),
  bank_code: v.picklist(BANK_CODES),
  bank_name: v.string(),
  /** Only the last four digits are ever sent back: "•••• 1234". */
  bank_number: v.pipe(v.string(), v.regex(/^•••• \d{4}$/)),
  phone: v.string(),
  email: v.string(),
  /** The customer's own name for it ('Rent'); '' when none. */
  label: v.string(),
  created_at: isoTime,
  /** From when withdrawals may go to it (the server's clock): a new payee waits out the cooling-off period (0 h: at
   * once). */
  usable_at: isoTime,
  /** Seconds until then when answered, rounded up (0: usable): a device counts down from its own clock. */
  cooling_seconds: whole,
});
export type BankCard = v.InferOutput<typeof BankCard>;

/** The longest label a payee can carry (a wallet's alias is its label). */
export const PAYEE_LABEL_MAX = 30;
/** Markup: a label is shown as plain text everywhere, and nothing that looks like a tag is kept. */
const NOT_IN_LABEL = /[<>]/;
/**
 * A payee's label as typed: visible text (visible-text.ts: composed, no invisible or direction-changing
 * character), at most PAYEE_LABEL_MAX characters, no markup; '' allowed.
 */
export const payeeLabel = v.pipe(
  v.string(texts.payeeLabelFormat.id),
  visibleText(null),
  maxCharacters(PAYEE_LABEL_MAX, texts.payeeLabelFormat.id),
  v.check((label) => !NOT_IN_LABEL.test(label), texts.payeeLabelFormat.id),
);

/** `text` with the full-width forms of ASCII (U+FF01–U+FF5E, what Chinese and Japanese input types) made ASCII. */
const halfWidth = (text: string) =>
  text.replace(/[\uff01-\uff5e]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));

/** Every field is required, the e-mail included; a missing one answers 'Please fill in the information…'. */
const filled = texts.fillInformation;
export const BankCardInput = v.object({
  real_name: personName(filled),
  // Latin letters and digits only, as typed: the full-width letters and digits of Chinese and Japanese input read as
  // the ASCII ones, the six languages' digits made ASCII, spaces dropped; then checked before upper-casing: Unicode's
  // case mapping (or compatibility composition) would make 'ß' 'SS' and the ligature 'ﬁ' 'FI', a code other than the
  // one typed.
  ifsc: v.pipe(
    required(filled),
    v.transform((typed: string) => asciiDigits(halfWidth(typed)).replace(/\s/g, '')),
    v.regex(/^[A-Za-z0-9]{4,20}$/, texts.ifscFormat.id),
    v.toUpperCase(),
  ),
  bank_code: v.picklist(BANK_CODES, texts.chooseBank.id),
  /** 6 to 20 digits, in any of the six languages' scripts, grouped by spaces or dashes as printed on a card. */
  bank_number: v.pipe(required(filled), groupedNumber(/[\s-]/g), v.regex(/^\d{6,20}$/, texts.bankNumberFormat.id)),
  /** The card holder's mobile number, in the shape every phone field takes; the server keeps it as E.164. */
  phone: v.pipe(required(filled), v.regex(PHONE, texts.phoneFormat.id)),
  email: v.pipe(required(filled), email),
  /** Optional: the customer's own name for the card. */
  label: v.optional(payeeLabel, ''),
  /** The authenticator or recovery code, when the user has two-factor on. */
  otp,
});
export const bankCards = get('/users/bank', NoInput, returns(Paged(BankCard)), { cache: 'user' });
export const addBankCard = post('/users/bank/add', BankCardInput, returns(BankCard));
/** The deletion is declared a GET; it still changes data, so it is sent as a write (never cached). */
export const deleteBankCard = get(
  '/users/bank/del',
  v.object({ id: matching(/^\d{1,9}$/, texts.payeeNotFound) }),
  returns(nothing),
  { readOnly: false },
);

/** Currencies a wallet can hold and the chains each travels on. */
export const WALLET_CHAINS = {
  USDT: ['TRC20', 'ERC20', 'BEP20'],
  BTC: ['BTC'],
  ETH: ['ERC20'],
} as const;
export type WalletCurrency = keyof typeof WALLET_CHAINS;
export type Chain = (typeof CHAINS)[number];
export const WALLET_CURRENCIES = Object.keys(WALLET_CHAINS) as WalletCurrency[];

/**
 * The contract address of each token above, on each chain it is a token on (a chain's own coin, BTC on Bitcoin and ETH
 * on Ethereum, has none), in the spelling readAddress stores. A contract holds no customer's funds: a transfer to it
 * is kept by the contract and lost, so no wallet may be one of these (chain-address.ts refuses them on every chain of
 * their kind). Sources: Tether's list of supported protocols (tether.to) for Ethereum and TRON, and BscScan's page of
 * the Binance-Peg BSC-USD token for BNB Smart Chain. A token added to WALLET_CHAINS adds its contracts here.
 */
export const TOKEN_CONTRACTS: Partial<Record<WalletCurrency, Partial<Record<Chain, string>>>> = {
  USDT: {
    TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    ERC20: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    BEP20: '0x55d398326f99059fF775485246999027B3197955',
  },
};

export const Wallet = shape({
  id: whole,
  alias: v.string(),
  currency: v.picklist(WALLET_CURRENCIES),
  chain: v.picklist(CHAINS),
  address: v.string(),
  created_at: isoTime,
  /** From when withdrawals may go to it (the server's clock): a new payee waits out the cooling-off period (0 h: at
   * once). */
  usable_at: isoTime,
  /** Seconds until then when answered, rounded up (0: usable): a device counts down from its own clock. */
  cooling_seconds: whole,
});
export type Wallet = v.InferOutput<typeof Wallet>;

export const wallets = get('/users/wallet/lists', NoInput, returns(Paged(Wallet)), { cache: 'user' });
export const deleteWallet = post(
  '/users/wallet/del',
  v.object({ id: matching(/^\d{1,9}$/, texts.payeeNotFound) }),
  returns(nothing),
);

export const PayeeLabelInput = v.pipe(
  v.object({
    kind: v.picklist(['bank', 'wallet'], texts.payeeNotFound.id),
    id: matching(/^\d{1,9}$/, texts.payeeNotFound),
    label: payeeLabel,
  }),
  v.check((input) => input.kind === 'bank' || input.label !== '', texts.fillInformation.id),
);
/**
 * Our addition: renames a bank card or wallet (its label; a wallet's is its alias, which cannot be empty). A label
 * changes nothing about where money goes, so no second factor is asked.
 */
export const editPayeeLabel = post('/users/payee/label', PayeeLabelInput, returns(nothing));

/** The device time from which withdrawals may go to a payee answered at `receivedAt` (device ms). */
export const usableBy = (payee: { cooling_seconds: number }, receivedAt: number) =>
  receivedAt + payee.cooling_seconds * 1000;

/** The cooling-off period a payee was given, from saved to usable, in ms. */
export const coolingMs = (payee: { created_at: string; usable_at: string }) =>
  Date.parse(payee.usable_at) - Date.parse(payee.created_at);

/** "•••• 1234": how a bank account number is shown anywhere after it was entered. */
export const maskBankNumber = (number: string) => `•••• ${number.slice(-4)}`;
