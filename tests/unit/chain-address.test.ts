// Payee addresses read by their chains' standards, on the standards' own test vectors: BIP-173 and BIP-350 (segwit,
// bech32 and bech32m), EIP-55 (mixed-case checksum), base58check (legacy Bitcoin, TRON). Each refusal has its reason.
// The deposit addresses derived for each customer (BIP-32/BIP-44) on the wallets' published vectors.
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { readAddress, type AddressProblem } from '../../src/api-contract/chain-address.ts';
import { RECHARGE_CHANNELS } from '../../src/server/db/seed-funds.ts';
import { TOKEN_CONTRACTS } from '../../src/api-contract/payouts.ts';
import { depositAddressOf } from '../../src/server/domain/deposit-addresses.ts';

const ok = (address: string) => ({ ok: true, address });
const refused = (problem: AddressProblem) => ({ ok: false, problem });

describe('Bitcoin segwit addresses (BIP-173, BIP-350)', () => {
  // BIP-350's valid segwit addresses (those of BIP-173 for version 0 are the same): the main network's are taken, in
  // lower case; the test network's are another network.
  it.each([
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', ok('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      ok('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'),
    ],
    // Versions 2 to 16 are valid but have no spending rules yet: refused (below).
    ['BC1SW50QGDZ25J', refused('futureVersion')],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', refused('futureVersion')],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      ok('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'),
    ],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', refused('network')],
    ['tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy', refused('network')],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', refused('network')],
  ])('valid vector %s', (address, expected) => {
    expect(readAddress('BTC', address)).toEqual(expected);
  });

  // BIP-350's invalid segwit addresses, each with the reason the standard gives, as the customer is told it.
  it.each([
    ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'network'], // invalid human-readable part
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'checksum'], // bech32 instead of bech32m
    ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'checksum'], // bech32 instead of bech32m
    ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'checksum'], // bech32 instead of bech32m
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'checksum'], // bech32m instead of bech32
    ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'checksum'], // bech32m instead of bech32
    ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'format'], // invalid character in checksum
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'format'], // invalid witness version
    ['bc1pw5dgrnzv', 'format'], // invalid program length (1 byte)
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'format'], // 41 bytes
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'format'], // invalid program length for witness version 0
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'format'], // mixed case
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'format'], // zero padding of more than 4 bits
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'format'], // non-zero padding in 8-to-5
    ['bc1gmk9yu', 'format'], // empty data section
  ] as const)('BIP-350 invalid vector %s: %s', (address, problem) => {
    expect(readAddress('BTC', address)).toEqual(refused(problem));
  });

  // BIP-173's invalid segwit addresses. Its version 1+ strings checksummed with bech32 are refused by their checksum
  // first since BIP-350 (which replaced BIP-173 for those versions), whatever else BIP-173 named.
  it.each([
    ['tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', 'network'], // invalid human-readable part
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'], // invalid checksum
    ['BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', 'format'], // invalid witness version
    ['bc1rw5uspcuh', 'checksum'], // invalid program length; version 3 in bech32
    ['bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90', 'checksum'], // likewise
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'format'], // invalid program length for witness version 0
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7', 'format'], // mixed case
    ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'checksum'], // zero padding of more than 4 bits; version 2 in bech32
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv', 'format'], // non-zero padding in 8-to-5
    ['bc1gmk9yu', 'format'], // empty data section
  ] as const)('BIP-173 invalid vector %s: %s', (address, problem) => {
    expect(readAddress('BTC', address)).toEqual(refused(problem));
  });

  it("refuses BIP-173's version 1+ addresses checksummed with bech32, which BIP-350 replaced", () => {
    for (const address of [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      'BC1SW50QA3JX3S',
      'bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj',
    ])
      expect(readAddress('BTC', address)).toEqual(refused('checksum'));
  });

  it('refuses every witness version from 2 to 16: no wallet can spend from one yet, so whatever is sent is lost', () => {
    const program = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    for (let version = 0; version <= 16; version++) {
      const codec = version === 0 ? bech32 : bech32m;
      const address = codec.encode('bc', [version, ...codec.toWords(program)]);
      expect(readAddress('BTC', address), address).toEqual(version <= 1 ? ok(address) : refused('futureVersion'));
    }
    // A test network's is still told as another network first.
    expect(readAddress('BTC', bech32m.encode('tb', [2, ...bech32m.toWords(program)]))).toEqual(refused('network'));
  });

  it('refuses one mistyped character of a valid address by its checksum', () => {
    const valid = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    expect(readAddress('BTC', valid)).toEqual(ok(valid));
    for (const at of [4, 12, 20, 30, valid.length - 1]) {
      const typo = valid.slice(0, at) + (valid[at] === 'q' ? 'p' : 'q') + valid.slice(at + 1);
      expect(readAddress('BTC', typo), typo).toEqual(refused('checksum'));
    }
  });

  it('takes the all-upper-case form of a QR code and stores it in lower case', () => {
    const valid = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    expect(readAddress('BTC', valid.toUpperCase())).toEqual(ok(valid));
  });
});

describe('Bitcoin legacy addresses (base58check)', () => {
  it.each([
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', ok('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')], // P2PKH, version 0x00
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', ok('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')], // P2SH, version 0x05
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', ok('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', refused('network')], // test network P2PKH, 0x6f
    ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', refused('network')], // test network P2SH, 0xc4
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', refused('checksum')], // last character mistyped
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN', refused('checksum')], // its last character missing
    ['1BvBMSEYstWetqTFn5Au4m4', refused('format')], // too short
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0', refused('format')], // 0 is not in base58
  ])('%s', (address, expected) => {
    expect(readAddress('BTC', address)).toEqual(expected);
  });

  it('keeps base58 as it is: its case is part of the address', () => {
    expect(readAddress('BTC', '1bvbmseystwetqtfn5au4m4gfg7xjanvn2').ok).toBe(false);
  });
});

describe('EVM addresses (EIP-55)', () => {
  // EIP-55's test cases: all caps, all lower, and normal (mixed, checksummed).
  const ALL_CAPS = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'];
  const ALL_LOWER = ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26'];
  const NORMAL = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each([...ALL_CAPS, ...ALL_LOWER, ...NORMAL])('takes %s and stores its checksummed form', (address) => {
    for (const chain of ['ERC20', 'BEP20'] as const) {
      expect(readAddress(chain, address)).toEqual(ok(address));
      expect(readAddress(chain, address.toLowerCase())).toEqual(ok(address));
      expect(readAddress(chain, `0x${address.slice(2).toUpperCase()}`)).toEqual(ok(address));
    }
  });

  it.each(NORMAL)('refuses %s with any one letter of it in the other case', (address) => {
    for (let i = 2; i < address.length; i++) {
      const char = address[i]!;
      if (!/[a-f]/i.test(char)) continue;
      const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
      const typo = address.slice(0, i) + flipped + address.slice(i + 1);
      expect(readAddress('ERC20', typo), typo).toEqual(refused('checksum'));
    }
  });

  it('refuses what is not 0x and 40 hex digits', () => {
    expect(readAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toEqual(refused('format'));
    expect(readAddress('ERC20', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refused('format'));
    expect(readAddress('BEP20', `0x${'g'.repeat(40)}`)).toEqual(refused('format'));
  });
});

describe('TRON addresses (base58check, version byte 0x41)', () => {
  // Published pairs of TRON's base58 and hex forms (TRON's wallet-cli documentation, Dune's, CryptoTron's).
  it.each([
    ['TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp', '4112e94f5a3c88b17d2f6e0b9a45cd310f8e7a6d29'],
    ['THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo6', '41503aa4ad108bd3a89ba0310e23b49fb654cd6986'],
    ['TQHgMpVzWkhSsRB4BzZgmV8uW4cFL8eaBr', '419d1015e669c2df831003c5c54ceb48da613d9979'],
  ])('takes %s', (address, hex) => {
    expect(readAddress('TRC20', address)).toEqual(ok(address));
    expect(Buffer.from(createBase58check(sha256).decode(address)).toString('hex')).toBe(hex);
  });

  it('refuses a mistyped or missing character, a cut address and one of another version byte', () => {
    const address = 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp';
    expect(readAddress('TRC20', `${address.slice(0, -1)}q`)).toEqual(refused('checksum'));
    expect(readAddress('TRC20', 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUP')).toEqual(refused('checksum'));
    expect(readAddress('TRC20', address.slice(0, 33))).toEqual(refused('checksum'));
    expect(readAddress('TRC20', address.slice(0, 20))).toEqual(refused('format'));
    expect(readAddress('TRC20', `T${'0'.repeat(33)}`)).toEqual(refused('format'));
    // The same account under a version byte of no chain the product lists.
    const payload = createBase58check(sha256).decode(address);
    const other = createBase58check(sha256).encode(Uint8Array.from([0x42, ...payload.slice(1)]));
    expect(readAddress('TRC20', other)).toEqual(refused('network'));
    expect(base58.decode(other)).toHaveLength(25);
  });
});

describe('another chain', () => {
  const TRON = 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp';
  const EVM = '0x12E94f5a3c88b17d2F6E0b9a45Cd310f8E7a6D29';
  const SEGWIT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  const LEGACY = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

  it.each([
    ['TRC20', EVM],
    ['TRC20', SEGWIT],
    ['TRC20', LEGACY],
    ['ERC20', TRON],
    ['BEP20', SEGWIT],
    ['ERC20', LEGACY],
    ['BTC', TRON],
    ['BTC', EVM],
  ] as const)('on %s, a valid address of another listed chain (%s) is "not the chosen chain"', (chain, address) => {
    expect(readAddress(chain, address)).toEqual(refused('otherChain'));
  });

  it('says "not the chosen chain" only of a valid address: a mistyped one is told as mistyped or malformed', () => {
    expect(readAddress('TRC20', '0x12E94f5a3c88b17d2F6E0b9a45Cd310f8E7a6d29')).toEqual(refused('format'));
    expect(readAddress('BTC', `${TRON.slice(0, -1)}q`)).toEqual(refused('checksum'));
  });

  it("keeps an EVM address usable on both EVM chains: TRON's hex form and EIP-55 name one account", () => {
    expect(readAddress('ERC20', EVM)).toEqual(ok(EVM));
    expect(readAddress('BEP20', EVM.toLowerCase())).toEqual(ok(EVM));
  });
});

describe('what a paste can carry', () => {
  const cases = [
    ['TRC20', 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp'],
    ['ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ] as const;

  it.each(cases)('trims the whitespace around a %s address: %s', (chain, address) => {
    for (const around of [' ', '\t', '\n', '\u00a0', '\u3000', '\ufeff', ' \r\n'])
      expect(readAddress(chain, `${around}${address}${around}`)).toEqual(ok(address));
  });

  it.each(cases)('refuses a %s address with an invisible character inside: %s', (chain, address) => {
    const inside = [
      '\u200b', // zero-width space
      '\u200c', // zero-width non-joiner
      '\u200d', // zero-width joiner
      '\u2060', // word joiner
      '\u202e', // right-to-left override
      '\u202d', // left-to-right override
      '\u2067', // right-to-left isolate
      '\u200f', // right-to-left mark
      '\u061c', // Arabic letter mark
      '\u00a0', // no-break space
      '\u202f', // narrow no-break space
      '\u2009', // thin space
      ' ', // a space
      '\u00ad', // soft hyphen
      '\u034f', // combining grapheme joiner
      '\ufe0f', // variation selector
      '\u3164', // Hangul filler
      '\uffa0', // half-width Hangul filler
      '\u2800', // braille blank
    ];
    for (const hidden of inside) {
      const at = 10;
      const text = address.slice(0, at) + hidden + address.slice(at);
      expect(readAddress(chain, text), JSON.stringify(text)).toEqual(refused('invisible'));
      // At an end, a character that is not whitespace is not trimmed either.
      if (!/\s/.test(hidden)) expect(readAddress(chain, address + hidden)).toEqual(refused('invisible'));
    }
  });

  it('refuses a look-alike letter of another script as not an address', () => {
    // Cyrillic а (U+0430) for the Latin a.
    expect(readAddress('ERC20', '0x5\u0430Aeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refused('format'));
    expect(readAddress('BTC', 'bc1q\u0430r0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toEqual(refused('format'));
  });

  it('refuses an overlong input without decoding it', () => {
    expect(readAddress('BTC', `bc1q${'q'.repeat(200)}`)).toEqual(refused('format'));
  });
});

describe('addresses nobody holds the key of', () => {
  // Each an account (or witness program) of zero bytes: valid by its standard, and whatever is sent there is lost.
  it.each([
    ['ERC20', '0x0000000000000000000000000000000000000000'],
    ['BEP20', '0x0000000000000000000000000000000000000000'],
    ['TRC20', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
    ['BTC', '1111111111111111111114oLvT2'],
    ['BTC', 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9e75rs'],
  ] as const)('refuses the %s zero address %s as unspendable', (chain, address) => {
    expect(readAddress(chain, address)).toEqual(refused('unspendable'));
  });

  it('takes an address one bit away from zero', () => {
    expect(readAddress('ERC20', '0x0000000000000000000000000000000000000001')).toEqual(
      ok('0x0000000000000000000000000000000000000001'),
    );
  });
});

describe('the contract addresses of the tokens the platform pays out', () => {
  // USDT's contracts as Tether and the chains' explorers publish them: a token contract holds no customer's funds, and
  // a transfer to it is kept by the contract, lost.
  it.each([
    ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['ERC20', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
    ['ERC20', '0xdac17f958d2ee523a2206206994597c13d831ec7'],
    ['BEP20', '0x55d398326f99059fF775485246999027B3197955'],
    // One EVM account is one address on both EVM chains: the other chain's USDT contract is nobody's wallet either.
    ['BEP20', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
    ['ERC20', '0x55D398326F99059FF775485246999027B3197955'],
  ] as const)('on %s, refuses %s as a token contract', (chain, address) => {
    expect(readAddress(chain, address)).toEqual(refused('tokenContract'));
  });

  it('lists each contract in its one stored spelling, a valid address of its chain', () => {
    for (const [token, chains] of Object.entries(TOKEN_CONTRACTS))
      for (const [chain, address] of Object.entries(chains)) {
        expect(readAddress(chain as 'TRC20', address), `${token} on ${chain}`).toEqual(refused('tokenContract'));
        expect(readAddress(chain as 'TRC20', address.toLowerCase()).ok, `${token} on ${chain}`).toBe(false);
      }
  });
});

describe('the deposit addresses the platform shows', () => {
  // BIP-39's "abandon … about" mnemonic (its seed is PBKDF2-HMAC-SHA512 of the words, salt "mnemonic", 2,048 rounds):
  // the first addresses every wallet derives from it, published with BIP-84 and by the wallets' own test vectors.
  const seed = pbkdf2Sync(`${'abandon '.repeat(11)}about`, 'mnemonic', 2048, 64, 'sha512');
  const accountKey = (path: string) => HDKey.fromMasterSeed(seed).derive(path).publicExtendedKey;

  it('derives each customer’s own address under a channel’s extended public key, as wallets do', () => {
    const ethereum = accountKey("m/44'/60'/0'");
    expect(depositAddressOf('ERC20', ethereum, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(depositAddressOf('BEP20', ethereum, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(depositAddressOf('TRC20', accountKey("m/44'/195'/0'"), 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    const bitcoin = accountKey("m/84'/0'/0'");
    expect(depositAddressOf('BTC', bitcoin, 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(depositAddressOf('BTC', bitcoin, 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    // Each in the spelling the address reader stores, and one address per customer.
    for (const chain of ['ERC20', 'TRC20'] as const)
      for (const id of [1, 2, 0x7fff_ffff]) {
        const address = depositAddressOf(chain, ethereum, id);
        expect(readAddress(chain, address)).toEqual({ ok: true, address });
      }
    expect(depositAddressOf('TRC20', ethereum, 1)).not.toBe(depositAddressOf('TRC20', ethereum, 2));
  });

  it('refuses a private extended key, a key that is none, and a customer id BIP-32 cannot index', () => {
    const root = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'");
    expect(() => depositAddressOf('ERC20', root.privateExtendedKey, 1)).toThrow(/PUBLIC/);
    expect(() => depositAddressOf('ERC20', `${root.publicExtendedKey.slice(0, -1)}x`, 1)).toThrow();
    for (const id of [-1, 0x8000_0000, 1.5])
      expect(() => depositAddressOf('ERC20', root.publicExtendedKey, id)).toThrow(/index/);
  });

  it('gives the seeded demo channels a key each, whose addresses pass their chain’s check', () => {
    for (const channel of RECHARGE_CHANNELS.filter((row) => row.kind === 'crypto')) {
      const chain = channel.chain as 'TRC20' | 'ERC20' | 'BEP20';
      const address = depositAddressOf(chain, channel.xpub!, 7);
      expect(readAddress(chain, address), channel.name).toEqual({ ok: true, address });
    }
  });

  it('every seeded crypto channel passes its chain’s own check, written in its one stored form', () => {
    const crypto = RECHARGE_CHANNELS.filter((channel) => channel.kind === 'crypto');
    expect(crypto.length).toBeGreaterThan(0);
    for (const channel of crypto)
      expect(readAddress(channel.chain as 'TRC20' | 'ERC20' | 'BEP20', channel.address), channel.name).toEqual({
        ok: true,
        address: channel.address,
      });
  });
});
