// Wallet addresses as the server takes them: read by their chains' standards (BIP-173/350 bech32, EIP-55, base58check),
// stored in one spelling, each refusal with its own reason in the customer's language, and nothing stored on a refusal.
// Wallets saved before this rule: answered and paid to in their standard spelling, or refused at withdrawal.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { formatter } from '@lingui/format-po';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import { fundsState, withdraw, withdrawn } from './funds-helpers.ts';
import { wallets } from '../../src/api-contract/payouts.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { wallets as walletRows } from '../../src/server/db/schema.ts';
import { storeWalletAddressesChecksummed } from '../../src/server/domain/payouts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const walletsOf = (userId: number) =>
  h.database.db.select().from(walletRows).where(eq(walletRows.userId, userId)).orderBy(asc(walletRows.id));

/** A text as the catalog of `locale` has it: what a customer of that language is told. */
function translated(locale: string, id: string): string {
  const catalog = formatter().parse(readFileSync(`src/locales/${locale}/messages.po`, 'utf8'), {
    locale,
    sourceLocale: 'en',
    filename: `${locale}.po`,
  }) as Record<string, { translation?: string }>;
  return catalog[id]!.translation!;
}

const SEGWIT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON = 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp';

const add = (token: string, fields: Record<string, string>, lang = 'en') =>
  h.call(addWallet, { alias: 'Mine', currency: 'USDT', ...fields }, { token, lang });

describe('adding a wallet', () => {
  it('takes the all-upper-case bech32 form of a QR code and stores it in lower case', async () => {
    const user = await customer(h);
    const res = await add(user.token, { currency: 'BTC', chain: 'BTC', address: SEGWIT.toUpperCase() });
    expect(res).toMatchObject({ ret: 1, data: { address: SEGWIT } });
    expect((await walletsOf(user.id)).map((row) => row.address)).toEqual([SEGWIT]);
    // Typed again in lower case, it is the same wallet.
    expect(await add(user.token, { currency: 'BTC', chain: 'BTC', address: SEGWIT })).toEqual(
      refused('This address has already been added!'),
    );
  });

  it('takes a pasted address with whitespace around it, stored without it', async () => {
    const user = await customer(h);
    const res = await add(user.token, { chain: 'TRC20', address: `\u00a0 ${TRON}\n` });
    expect(res).toMatchObject({ ret: 1, data: { address: TRON } });
    expect((await walletsOf(user.id)).map((row) => row.address)).toEqual([TRON]);
  });

  const mistypedEip55 = `${EIP55.slice(0, 4)}a${EIP55.slice(5)}`; // its first A in lower case
  const refusals: [string, Record<string, string>, keyof typeof texts][] = [
    [
      'an EIP-55 address with one letter in the wrong case',
      { chain: 'ERC20', address: mistypedEip55 },
      'walletAddressChecksum',
    ],
    [
      'a bech32 address with one wrong character',
      { currency: 'BTC', chain: 'BTC', address: `${SEGWIT.slice(0, -1)}a` },
      'walletAddressChecksum',
    ],
    [
      'a TRON address with one wrong character',
      { chain: 'TRC20', address: `${TRON.slice(0, -1)}q` },
      'walletAddressChecksum',
    ],
    [
      'a Bitcoin test-network address',
      { currency: 'BTC', chain: 'BTC', address: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' },
      'walletAddressNetwork',
    ],
    [
      'a zero-width space inside',
      { chain: 'TRC20', address: `${TRON.slice(0, 8)}\u200b${TRON.slice(8)}` },
      'walletAddressInvisible',
    ],
    [
      'a right-to-left override inside',
      { chain: 'ERC20', address: `${EIP55.slice(0, 30)}\u202e${EIP55.slice(30)}` },
      'walletAddressInvisible',
    ],
    [
      'a no-break space inside',
      { currency: 'BTC', chain: 'BTC', address: `${SEGWIT.slice(0, 20)}\u00a0${SEGWIT.slice(20)}` },
      'walletAddressInvisible',
    ],
    [
      'a Bitcoin address of segwit version 2, which no wallet can spend from yet',
      { currency: 'BTC', chain: 'BTC', address: 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs' },
      'walletAddressFutureVersion',
    ],
    [
      "USDT's TRC-20 contract address",
      { chain: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      'walletAddressTokenContract',
    ],
    [
      "USDT's ERC-20 contract address, in lower case",
      { chain: 'ERC20', address: '0xdac17f958d2ee523a2206206994597c13d831ec7' },
      'walletAddressTokenContract',
    ],
    ["another listed chain's valid address", { chain: 'TRC20', address: EIP55 }, 'walletAddressFormat'],
    ['no address of any chain', { chain: 'ERC20', address: '0x1234' }, 'walletAddressInvalid'],
  ];

  describe.each(LOCALES)('in %s', (locale) => {
    it.each(refusals)('refuses %s with its own reason and stores nothing', async (_, fields, text) => {
      const user = await customer(h);
      const expected = translated(locale, texts[text].id);
      if (locale !== 'en') expect(expected).not.toBe(texts[text].message);
      expect(await add(user.token, fields, locale)).toEqual(refused(expected));
      expect(await walletsOf(user.id)).toEqual([]);
    });
  });
});

describe('wallets saved before addresses were read by their standards', () => {
  /** A wallet row as the earlier rule stored it, written straight into the table. */
  async function savedBefore(userId: number, chain: string, address: string, currency = 'USDT') {
    const [row] = await h.database.db
      .insert(walletRows)
      .values({
        userId,
        alias: 'Old',
        currency,
        chain,
        address,
        createdAt: new Date(h.clock.now().getTime() - 86_400_000 * 30),
      })
      .returning();
    return row!;
  }

  it('answers a lower-case EVM address in its EIP-55 form and sends withdrawals to that form', async () => {
    const user = await customer(h, '100');
    const row = await savedBefore(user.id, 'ERC20', EIP55.toLowerCase());
    expect((await h.call(wallets, {}, { token: user.token })).data.lists.map((w) => w.address)).toEqual([EIP55]);
    // The same address cannot be added again in its checksummed form.
    expect(await add(user.token, { chain: 'ERC20', address: EIP55 })).toEqual(
      refused('This address has already been added!'),
    );
    const order = await withdrawn(h, user.token, { target: 'wallet', target_id: String(row.id), amount: '10' });
    expect(order.payee_account).toBe(EIP55);
  });

  it('refuses a withdrawal to a saved address that fails its checksum, and moves nothing', async () => {
    const user = await customer(h, '100');
    const row = await savedBefore(user.id, 'TRC20', `${TRON.slice(0, -1)}q`);
    const before = await fundsState(h, user.id);
    expect(await withdraw(h, user.token, { target: 'wallet', target_id: String(row.id), amount: '10' })).toEqual(
      refused(texts.walletAddressChecksum.message),
    );
    expect(await fundsState(h, user.id)).toEqual(before);
  });

  it("refuses a withdrawal to a saved token contract address (USDT's own), and moves nothing", async () => {
    const user = await customer(h, '100');
    const row = await savedBefore(user.id, 'ERC20', '0xdAC17F958D2ee523a2206206994597C13D831ec7');
    const before = await fundsState(h, user.id);
    expect(await withdraw(h, user.token, { target: 'wallet', target_id: String(row.id), amount: '10' })).toEqual(
      refused(texts.walletAddressTokenContract.message),
    );
    expect(await fundsState(h, user.id)).toEqual(before);
  });

  it('rewrites stored lower-case EVM addresses in their EIP-55 form, once, and leaves the others', async () => {
    const user = await customer(h);
    const evm = await savedBefore(user.id, 'BEP20', '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359');
    const digitsOnly = await savedBefore(user.id, 'ERC20', `0x${'1'.repeat(40)}`);
    const tron = await savedBefore(user.id, 'TRC20', TRON);
    const broken = await savedBefore(user.id, 'TRC20', `${TRON.slice(0, -1)}q`);
    expect(await storeWalletAddressesChecksummed(h.database.db)).toBeGreaterThanOrEqual(1);
    const stored = new Map((await walletsOf(user.id)).map((row) => [row.id, row.address]));
    expect(stored.get(evm.id)).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    expect(stored.get(digitsOnly.id)).toBe(digitsOnly.address);
    expect(stored.get(tron.id)).toBe(TRON);
    expect(stored.get(broken.id)).toBe(broken.address);
    expect(await storeWalletAddressesChecksummed(h.database.db)).toBe(0);
  });
});
