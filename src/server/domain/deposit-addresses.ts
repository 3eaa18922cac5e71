// Each customer's own deposit address on a crypto recharge channel. With one address shared by every customer, the
// transfers to it are public on the chain: anyone could report another customer's transaction hash as their own
// before its sender did, and the reviewer could not tell whose it was. A channel that holds an extended public key
// (BIP-32 "xpub", of the account level of its wallet, e.g. m/44'/195'/0' for TRON, m/44'/60'/0' for Ethereum and BSC,
// m/84'/0'/0' for Bitcoin) gives each customer the address of its external chain at their customer id
// (BIP-44: …/0/<id>), so a transfer to it can only be theirs; the wallet that holds the private key sees every one.
// The derivation is @scure/bip32's (audited, by the author of the hashes and codecs the address readers use); the
// encodings are each chain's own: TRON base58check of 0x41 and the Keccak-256 account, EIP-55 on the EVM chains,
// bech32 segwit v0 (BIP-173) on Bitcoin.
import { HDKey } from '@scure/bip32';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import type { CHAINS } from '../../api-contract/constants.ts';
import { base58check, eip55 } from '../../api-contract/chain-address.ts';

type Chain = (typeof CHAINS)[number];

/** BIP-32's bound on a non-hardened child index: a customer id at or above it has no address of its own. */
const FIRST_HARDENED = 0x8000_0000;

/** The 20-byte account of a secp256k1 public key on TRON and the EVM chains: the last 20 bytes of the Keccak-256 of
 * its uncompressed form without the leading 0x04. */
function keccakAccount(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/** One EVM key is one address on every EVM chain: EIP-55 of its account. */
const evmAddress = (publicKey: Uint8Array) => eip55(bytesToHex(keccakAccount(publicKey)));

const ENCODERS: Record<Chain, (publicKey: Uint8Array) => string> = {
  TRC20: (publicKey) => base58check.encode(Uint8Array.of(0x41, ...keccakAccount(publicKey))),
  ERC20: evmAddress,
  BEP20: evmAddress,
  BTC: (publicKey) => bech32.encode('bc', [0, ...bech32.toWords(ripemd160(sha256(publicKey)))]),
};

/**
 * The depth of the key a channel keeps. BIP-44's path is m / purpose' / coin_type' / account' / change /
 * address_index, each step with an apostrophe a hardened one; BIP-32 serializes a key's depth (0 for the master, 1
 * for its children, …) and the child number that reached it (2^31 and above when hardened). A customer's address is
 * the account's …/0/<customer id>, so the key is the account's: depth 3, reached by a hardened step. Any other
 * (the wallet's master key, its coin's key, one of the account's chains) derives addresses the wallet does not show
 * for that account, and deposits to them would go unseen.
 */
export const ACCOUNT_DEPTH = 3;

/** Whether `key` is an account's key in BIP-44's sense (depth ACCOUNT_DEPTH, reached by hardened derivation). */
export const isAccountKey = (key: HDKey) => key.depth === ACCOUNT_DEPTH && key.index >= FIRST_HARDENED;

/**
 * Reads an extended public key as a channel keeps it.
 * @throws Error when it is not a BIP-32 extended public key (a private one is refused: the server must never hold it).
 */
export function readExtendedPublicKey(xpub: string): HDKey {
  const key = HDKey.fromExtendedKey(xpub.trim());
  if (key.privateKey) throw new Error('a deposit channel keeps an extended PUBLIC key, never a private one');
  return key;
}

/**
 * The deposit address of customer `customerId` on `chain` under the account-level extended public key `xpub`: the
 * public key at …/0/<customerId> (BIP-44's external chain) in the chain's own spelling (the one the address readers
 * store: base58 for TRON, EIP-55 for the EVM chains, lower-case bech32 for Bitcoin).
 * @throws Error for a key that is not an extended public key, or a customer id outside 0 … 2^31 − 1.
 */
export function depositAddressOf(chain: Chain, xpub: string, customerId: number): string {
  if (!Number.isInteger(customerId) || customerId < 0 || customerId >= FIRST_HARDENED)
    throw new Error(`customer id ${customerId} has no non-hardened BIP-32 index`);
  const child = readExtendedPublicKey(xpub).deriveChild(0).deriveChild(customerId);
  return ENCODERS[chain](child.publicKey!);
}

/** What of a recharge channel decides where a customer pays on it. */
interface ChannelKeys {
  chain: string | null;
  address: string;
  xpub: string | null;
  /** The keys `xpub` held before, oldest first. */
  previousXpubs: readonly string[];
}

/**
 * Where customer `userId` pays on a recharge channel: their own address under its extended public key when it keeps
 * one (depositAddressOf), else the channel's one address or bank account.
 */
export function customerDepositAddress(channel: Omit<ChannelKeys, 'previousXpubs'>, userId: number): string {
  return channel.xpub && channel.chain
    ? depositAddressOf(channel.chain as Chain, channel.xpub, userId)
    : channel.address;
}

/**
 * Every address of `channel` that customer `userId` may have been shown, and so may have paid to: their address under
 * its key now (customerDepositAddress), the channel's one address, and theirs under each key it held before (an
 * operator's change does not move a transfer already made). The platform's wallet watches them all.
 */
export const addressesShownTo = (channel: ChannelKeys, userId: number): string[] => [
  customerDepositAddress(channel, userId),
  channel.address,
  ...channel.previousXpubs.map((xpub) => customerDepositAddress({ ...channel, xpub }, userId)),
];
