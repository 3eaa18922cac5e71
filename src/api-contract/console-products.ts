// The admin's product calls: the terms of option products and the trading rules of
// contract pairs, read and changed in the console as `npm run ops -- product|pair` changes them.
// A change names only the terms it sets, each as the operator would write `term=value`; which values
// a term takes is decided once, here (OPTION_PRODUCT_TAKES, CONTRACT_PAIR_TAKES): the console says a wrong value by
// its field before sending, and the server refuses it for both entry points. Terms
// apply to orders to come: nothing here sets a price or an outcome, or touches a placed order.
import * as v from 'valibot';
import { consoleTexts } from './console-texts.ts';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { decimal, shape, whole } from './answers.ts';
import { AMOUNT, isPositiveAmount } from './markets.ts';

/** An option product's terms: its yield on a win (0.85 = 85 %), least stake (USDT), and whether it is offered. */
export const OPTION_PRODUCT_TERMS = ['yield', 'min', 'active'] as const;
/** A pair's rules: tick and step (price and quantity decimals), least order (USDT), fee rate, fat-finger band, offered.
 * */
export const CONTRACT_PAIR_TERMS = ['tick', 'step', 'min', 'fee', 'band', 'active'] as const;
export type OptionProductTerm = (typeof OPTION_PRODUCT_TERMS)[number];
export type ContractPairTerm = (typeof CONTRACT_PAIR_TERMS)[number];

/** Whether a term's value, as written (ASCII digits, "true" | "false"), is one the term takes. */
export type TermTakes = (value: string) => boolean;
/** An on-off term (whether a product, pair or task is offered): "true" or "false". */
export const isFlag: TermTakes = (value) => value === 'true' || value === 'false';
/** A number of decimals a pair's prices or quantities are written with: 0 to 8 (the API's amounts have 8). */
const isDecimals: TermTakes = (value) => /^[0-8]$/.test(value);

/**
 * Which values each option product term takes: the console checks them before sending, the server's settings
 * (server/domain/settings.ts) again for both entry points. The yield on a win is a fraction of the stake above 0 and
 * at most 1, up to 4 decimals (0.85 is 85 %; a win pays the stake and at most as much again): "85" meant as 85 % would
 * pay 85 times the stake, and "0" a win of nothing. The least stake is an amount in USDT above 0.
 */
export const OPTION_PRODUCT_TAKES: Record<OptionProductTerm, TermTakes> = {
  yield: (value) => /^(0\.\d{1,4}|1(\.0{1,4})?)$/.test(value) && /[1-9]/.test(value),
  min: isPositiveAmount,
  active: isFlag,
};
/**
 * Which values each pair rule takes (checked as OPTION_PRODUCT_TAKES are): price and quantity decimals 0 to 8; the
 * least order an amount in USDT (0 for none); the fee rate a fraction below 0.1 (10 %), up to 6 decimals; the price
 * band a fraction above 0 and below 1, up to 4 decimals (how far a limit price may stray from the latest recorded one).
 */
export const CONTRACT_PAIR_TAKES: Record<ContractPairTerm, TermTakes> = {
  tick: isDecimals,
  step: isDecimals,
  min: (value) => AMOUNT.test(value),
  fee: (value) => /^0(\.0\d{0,5})?$/.test(value),
  band: (value) => /^0\.\d{1,4}$/.test(value) && /[1-9]/.test(value),
  active: isFlag,
};

const admin = { console: 'admin' } as const;
/** A term's value as written; the server's rule for the term decides whether it applies. Left out: unchanged. */
const termValue = v.optional(
  v.pipe(v.string(texts.invalidRequest.id), v.trim(), v.maxLength(40, texts.invalidRequest.id)),
);
const termsInput = <T extends string>(terms: readonly T[]) =>
  Object.fromEntries(terms.map((term) => [term, termValue])) as Record<T, typeof termValue>;

export const ConsoleOptionProduct = shape({
  id: whole,
  coin: v.string(),
  minutes: whole,
  yield: decimal,
  min: decimal,
  active: v.boolean(),
});
export type ConsoleOptionProduct = v.InferOutput<typeof ConsoleOptionProduct>;
export const ConsoleContractPair = shape({
  coin: v.string(),
  tick: whole,
  step: whole,
  min: decimal,
  fee: decimal,
  band: decimal,
  active: v.boolean(),
});
export type ConsoleContractPair = v.InferOutput<typeof ConsoleContractPair>;

/** Every option product, by coin and period, active or not. */
export const consoleOptionProducts = get('/console/products', NoInput, returns(v.array(ConsoleOptionProduct)), admin);
/** Changes the terms sent (at least one); answers the product as it now is. */
export const consoleChangeOptionProduct = post(
  '/console/product',
  v.strictObject(
    { id: matching(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound), ...termsInput(OPTION_PRODUCT_TERMS) },
    texts.invalidRequest.id,
  ),
  returns(ConsoleOptionProduct),
  admin,
);

/** Every contract pair (coin/USDT) and its rules. */
export const consoleContractPairs = get('/console/pairs', NoInput, returns(v.array(ConsoleContractPair)), admin);
/** Changes the rules sent (at least one); answers the pair as it now is. */
export const consoleChangeContractPair = post(
  '/console/pair',
  v.strictObject(
    { coin: matching(/^[A-Za-z0-9]{1,16}$/, consoleTexts.consoleRecordNotFound), ...termsInput(CONTRACT_PAIR_TERMS) },
    texts.invalidRequest.id,
  ),
  returns(ConsoleContractPair),
  admin,
);
