// A list of amounts by asset, as a request carries what the customer was shown and agreed to: "ASSET:amount" pairs
// joined by "," ("USDT:0.77,BTC:0.00000898"), each amount a plain decimal of at most 8 decimals, each asset once, at
// most 50. A close request's `amounts` (what ends with the account) and a small balances' conversion's (what is
// converted) are both such a list; the server goes ahead only on exactly the amounts it finds.
import Big from 'big.js';
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';

/** The list's spelling (the published document shows it): 1–50 "ASSET:amount" pairs joined by ",". */
export const ASSET_AMOUNTS = /^[A-Z0-9]{2,10}:\d{1,18}(?:\.\d{1,8})?(?:,[A-Z0-9]{2,10}:\d{1,18}(?:\.\d{1,8})?){0,49}$/;

/**
 * The list must name each asset once, else refused with `wrong`. Why: the list is the customer's consent to the
 * amounts shown, one per asset; "USDT:5,USDT:0.77" carries two amounts for one asset, so it is consent to neither, and
 * reading it as a map would keep the last and go ahead on it.
 */
export const eachAssetOnce = /*#__NO_SIDE_EFFECTS__*/ (wrong: MessageDescriptor) =>
  v.check((text: string) => {
    const assets = text === '' ? [] : text.split(',').map((pair) => pair.split(':')[0]);
    return new Set(assets).size === assets.length;
  }, wrong.id);

/** The list for `list` (each asset with the amount shown; '' for none): what assetAmountsOf reads back. */
export const assetAmountsText = (list: readonly { asset: string; amount: string }[]): string =>
  list.map((item) => `${item.asset}:${new Big(item.amount).toFixed()}`).join(',');

/** The amounts of a list (ASSET_AMOUNTS, checked by eachAssetOnce, or '') by asset: "USDT:0.77" → {USDT: "0.77"}. */
export const assetAmountsOf = (text: string): Map<string, string> =>
  new Map(text === '' ? [] : text.split(',').map((pair) => pair.split(':') as [string, string]));
