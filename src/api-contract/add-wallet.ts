// Adding a wallet: the form the add-wallet page checks and the server validates with, the address read by its chain's
// standard (api-contract/chain-address.ts). Apart from api-contract/payouts.ts so that only the add-wallet page and the
// server load the address codecs; the lists and the withdraw page do not.
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { post, returns } from './endpoint.ts';
import { otp, required } from './fields.ts';
import { texts } from './texts.ts';
import { readAddress, type AddressProblem } from './chain-address.ts';
import { maxCharacters, visibleName } from './visible-text.ts';
import { WALLET_ALIAS_MAX } from './constants.ts';
import { WALLET_CHAINS, WALLET_CURRENCIES, Wallet, payeeLabel } from './payouts.ts';

/** The text of each reason an address is refused (api-contract/chain-address.ts says when each applies). */
export const ADDRESS_PROBLEM_TEXTS: Record<AddressProblem, MessageDescriptor> = {
  invisible: texts.walletAddressInvisible,
  format: texts.walletAddressInvalid,
  checksum: texts.walletAddressChecksum,
  network: texts.walletAddressNetwork,
  otherChain: texts.walletAddressFormat,
  unspendable: texts.walletAddressUnspendable,
  tokenContract: texts.walletAddressTokenContract,
  futureVersion: texts.walletAddressFutureVersion,
};

/**
 * A wallet to add: alias (a payee label), currency, a chain the currency travels on, the address and the second
 * factor. The address is read by the chain's standard (BIP-173/350, base58check, EIP-55) and comes out in its one
 * stored spelling; a refusal answers the text of its reason.
 */
export const WalletInput = v.pipe(
  v.object({
    alias: v.pipe(
      visibleName(texts.fillInformation),
      // Too long is said as a label's rule says it, not as a field left empty.
      maxCharacters(WALLET_ALIAS_MAX, texts.payeeLabelFormat.id),
      payeeLabel,
    ),
    currency: v.picklist(WALLET_CURRENCIES, texts.chooseChain.id),
    chain: v.picklist(['TRC20', 'ERC20', 'BEP20', 'BTC'], texts.chooseChain.id),
    address: required(texts.fillInformation),
    /** The authenticator or recovery code, when the user has two-factor on. */
    otp,
  }),
  v.check((input) => (WALLET_CHAINS[input.currency] as readonly string[]).includes(input.chain), texts.chooseChain.id),
  // The chain's own standard; what passes is stored in its one spelling (lower-case bech32, EIP-55).
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const input = dataset.value;
    const reading = readAddress(input.chain, input.address);
    if (reading.ok) return { ...input, address: reading.address };
    // Said about the address field, so that a form shows it there (the answer's `field`).
    const path = [{ type: 'object', origin: 'value', input, key: 'address', value: input.address }] as const;
    addIssue({ message: ADDRESS_PROBLEM_TEXTS[reading.problem].id, path: [...path] });
    return NEVER;
  }),
);
/** Adds a wallet (needs the second factor when the customer has two-factor on); answers it as stored. */
export const addWallet = post('/users/wallet/add', WalletInput, returns(Wallet));
