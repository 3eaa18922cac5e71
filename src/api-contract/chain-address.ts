// A payee's wallet address, read by its chain's own standard: Bitcoin by BIP-173 (bech32, segwit v0) and BIP-350
// (bech32m, v1 and later; only v1, taproot, has spending rules yet) or base58check (legacy P2PKH/P2SH), the EVM chains
// by EIP-55, TRON by base58check. The codecs are @scure/base's; the hashes @noble/hashes'. Each refusal names what is
// wrong, so a mistyped character, a test network, a hidden character and another chain's address each get their own
// text. Loaded only where a wallet is added or paid to (the add-wallet page, the server), never by a first screen.
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CHAINS } from './constants.ts';
import { HIDDEN_CLASS } from './hidden-characters.ts';
import { TOKEN_CONTRACTS } from './payouts.ts';

type Chain = (typeof CHAINS)[number];

/**
 * Why an address was refused:
 * - `invisible`: it holds a space, a no-break space, a zero-width or direction-changing character, or another
 *   character that shows nothing (inside it; a paste's leading and trailing whitespace is trimmed first);
 * - `format`: it is not an address of the chosen chain at all (wrong length, characters outside the chain's alphabet,
 *   mixed-case bech32, a witness version or program length the standard does not allow);
 * - `checksum`: it has the chosen chain's shape but its checksum fails: a mistyped or missing character;
 * - `network`: a valid address of another network of that kind (a Bitcoin test network, another bech32 or base58
 *   coin);
 * - `otherChain`: a valid address of another chain the product lists (a TRON address on Bitcoin, an EVM one on TRON);
 * - `unspendable`: a valid address whose account (or witness program) is all zero bytes, such as the EVM chains'
 *   0x000…000: no one holds its key, and whatever is sent to it is lost (it is where tokens are burnt);
 * - `tokenContract`: the contract address of a token the platform pays out (payouts.ts, TOKEN_CONTRACTS), on any chain
 *   of its kind: a contract is no wallet, and a transfer to it is lost;
 * - `futureVersion`: a valid Bitcoin segwit address of witness version 2 to 16. BIP-350 makes them valid so that
 *   future soft forks can use them, but no version after 1 (taproot) has spending rules yet: no wallet can spend from
 *   one, and coins sent there can be taken by anyone until a fork gives the version rules, or are lost. Exchanges
 *   refuse them.
 */
export type AddressProblem =
  'invisible' | 'format' | 'checksum' | 'network' | 'otherChain' | 'unspendable' | 'tokenContract' | 'futureVersion';

/** An address read: its one stored spelling, or why it was refused. */
export type AddressReading = { ok: true; address: string } | { ok: false; problem: AddressProblem };

type Family = 'bitcoin' | 'evm' | 'tron';
/** What one chain's reader can refuse (the hidden characters and another chain are told by `readAddress`). */
type ReadProblem = Exclude<AddressProblem, 'invisible' | 'otherChain' | 'tokenContract'>;
type Read = { ok: true; address: string } | { ok: false; problem: ReadProblem };

const FAMILY: Record<Chain, Family> = { BTC: 'bitcoin', ERC20: 'evm', BEP20: 'evm', TRC20: 'tron' };

// Whitespace and every character the visible-text rule calls hidden (zero-width characters, bidi controls, Hangul
// fillers, variation selectors, soft hyphen, the braille blank): none belongs in an address and none can be seen.
const INVISIBLE = new RegExp(`[\\s${HIDDEN_CLASS}]`, 'u');
// No chain's address is longer than a bech32 string's 90 characters; a longer input is not decoded.
const LONGEST = 90;
// The bech32 alphabet (BIP-173).
const BECH32_STRING = /^[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;
const BASE58_STRING = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** Base58check with Bitcoin's double-SHA-256 checksum, as TRON addresses and BIP-32 extended keys are written. */
export const base58check = createBase58check(sha256);

const accept = (address: string): Read => ({ ok: true, address });
const refuse = (problem: ReadProblem): Read => ({ ok: false, problem });
/** True when every byte of `bytes` is zero: an account nobody holds the key of. */
const allZero = (bytes: Uint8Array) => bytes.every((byte) => byte === 0);

/** A base58check payload (version byte first), or why not: characters, length, then the double-SHA-256 checksum. */
function base58Payload(text: string, payloadBytes: number): Uint8Array | 'format' | 'checksum' {
  if (!BASE58_STRING.test(text)) return 'format';
  if (base58.decode(text).length !== payloadBytes + 4) return 'format';
  try {
    return base58check.decode(text);
  } catch {
    return 'checksum';
  }
}

/**
 * BIP-173 and BIP-350: a native segwit address; `bc` is Bitcoin's main network. Versions 0 and 1 only (see
 * `futureVersion`). Stored in lower case.
 */
function readSegwit(text: string): Read {
  // One case throughout: the all-upper form is what QR codes carry.
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return refuse('format');
  const lower = text.toLowerCase();
  if (!BECH32_STRING.test(lower)) return refuse('format');
  const asBech32 = bech32.decodeUnsafe(lower, LONGEST);
  const asBech32m = bech32m.decodeUnsafe(lower, LONGEST);
  const decoded = asBech32 || asBech32m;
  if (!decoded) return refuse('checksum');
  const [version, ...programWords] = decoded.words;
  if (version === undefined || version > 16) return refuse('format');
  // Version 0 is checksummed with bech32, every later version with bech32m.
  if ((version === 0 ? asBech32 : asBech32m) === undefined) return refuse('checksum');
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program || program.length < 2 || program.length > 40) return refuse('format');
  if (version === 0 && program.length !== 20 && program.length !== 32) return refuse('format');
  if (decoded.prefix !== 'bc') return refuse('network');
  if (version > 1) return refuse('futureVersion');
  return allZero(program) ? refuse('unspendable') : accept(lower);
}

/** Base58check P2PKH (version byte 0x00, "1…") or P2SH (0x05, "3…") on Bitcoin's main network. */
function readLegacyBitcoin(text: string): Read {
  const payload = base58Payload(text, 21);
  if (typeof payload === 'string') return refuse(payload);
  if (payload[0] !== 0x00 && payload[0] !== 0x05) return refuse('network');
  return allZero(payload.subarray(1)) ? refuse('unspendable') : accept(text);
}

function readBitcoin(text: string): Read {
  // A human-readable part of letters then "1": bech32 (a legacy address starts with 1 or 3).
  if (/^[a-z]+1/i.test(text)) {
    const segwit = readSegwit(text);
    // A TRON or legacy address can start with letters and a "1" too: its own reading decides then.
    if (segwit.ok || segwit.problem !== 'format' || !BASE58_STRING.test(text)) return segwit;
  }
  return readLegacyBitcoin(text);
}

/** EIP-55: the address's hex digits, upper case where the nibble of keccak-256(lower-case hex) is 8 or more. */
export function eip55(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

/** 0x and 40 hex digits; one case is taken as is, mixed case must be the EIP-55 checksum. Stored as EIP-55. */
function readEvm(text: string): Read {
  const match = /^0[xX]([0-9a-fA-F]{40})$/.exec(text);
  if (!match) return refuse('format');
  const hex = match[1]!;
  const checksummed = eip55(hex);
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!oneCase && `0x${hex}` !== checksummed) return refuse('checksum');
  return /^0{40}$/.test(hex) ? refuse('unspendable') : accept(checksummed);
}

/** TRON: base58check of version byte 0x41 and a 20-byte account ("T…"). */
function readTron(text: string): Read {
  const payload = base58Payload(text, 21);
  if (typeof payload === 'string') return refuse(payload);
  if (payload[0] !== 0x41) return refuse('network');
  return allZero(payload.subarray(1)) ? refuse('unspendable') : accept(text);
}

const READERS: Record<Family, (text: string) => Read> = { bitcoin: readBitcoin, evm: readEvm, tron: readTron };

/** The token contracts in their stored spelling: one EVM account is the same address on every EVM chain. */
const CONTRACTS = new Set(Object.values(TOKEN_CONTRACTS).flatMap((chains) => Object.values(chains)));

/**
 * Reads a payee's address for `chain` (TRC20, ERC20, BEP20, BTC): the paste's leading and trailing whitespace
 * trimmed, then checked by the chain's standard (see the file's head). Answers the one spelling to store and compare
 * (lower-case bech32, EIP-55 for EVM, base58 as it is) or the problem; throws nothing.
 */
export function readAddress(chain: Chain, input: string): AddressReading {
  const text = input.trim();
  if (INVISIBLE.test(text)) return { ok: false, problem: 'invisible' };
  if (text.length > LONGEST) return { ok: false, problem: 'format' };
  const family = FAMILY[chain];
  const own = READERS[family](text);
  if (own.ok) return CONTRACTS.has(own.address) ? { ok: false, problem: 'tokenContract' } : own;
  // "Another chain" only when it really is a valid address of one the product lists.
  for (const other of Object.keys(READERS) as Family[])
    if (other !== family && READERS[other](text).ok) return { ok: false, problem: 'otherChain' };
  return own;
}
