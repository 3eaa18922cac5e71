// Adding a wallet (checked against the API contract first, the address by its chain's standard): apart from the payouts
// store, so that only the add-wallet page loads the address codecs.
import * as v from 'valibot';
import { WalletInput, addWallet } from '../../api-contract/add-wallet.ts';
import { MAX_WALLETS } from '../../api-contract/constants.ts';
import type { Wallet } from '../../api-contract/payouts.ts';
import { api } from '../../lib/api.ts';
import { firstError } from '../../lib/validate.ts';
import { noteAddedWallet, walletLimitText } from './payouts-store.ts';

export type WalletForm = v.InferInput<typeof WalletInput>;

/** The first rule the wallet breaks (translated), or null: the chain must be one of the currency's, the address valid
 * by the chain's standard (its own text for a mistyped checksum, another network, an invisible character, another
 * chain's address). */
export function walletProblem(form: WalletForm, walletsAdded: number): string | null {
  if (walletsAdded >= MAX_WALLETS) return walletLimitText();
  return firstError(WalletInput, form);
}

/** Sends the wallet in its stored spelling and puts the answer at the top of the list. */
export async function saveWallet(form: WalletForm): Promise<Wallet> {
  const wallet = await api(addWallet, v.parse(WalletInput, form));
  noteAddedWallet(wallet);
  return wallet;
}
