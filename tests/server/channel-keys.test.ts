// A recharge channel's extended public key set in the console: only an admin sets it; a private key, a key of another
// version than xpub, anything that is no key and a bank channel are refused with the operator's text and change
// nothing; a change is one audit entry naming the keys by fingerprint; from then on a customer is shown their address
// under the new key (or the channel's one address once cleared), while a recharge already reported keeps the address
// it recorded, for the customer and the reviewer alike.
import { pbkdf2Sync } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc, eq, gt } from 'drizzle-orm';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused, refusedAbout } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { cryptoRecharge, newHash } from './funds-helpers.ts';
import {
  consolePreviewChannelKey,
  consoleRechargeChannels,
  consoleSetChannelKey,
} from '../../src/api-contract/console-channels.ts';
import { consoleRecharge } from '../../src/api-contract/console.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { rechargeChannels, rechargeOrder, submitRecharge } from '../../src/api-contract/funds.ts';
import { auditLog, rechargeChannels as channelRows } from '../../src/server/db/schema.ts';
import { depositAddressOf } from '../../src/server/domain/deposit-addresses.ts';

const ROLE_REFUSED = refused('Your role does not allow this!');
// A key's refusal is about the request's `xpub`: the console shows it under the key's field.
const PRIVATE = refusedAbout(
  'This is a private key: the server must never hold one. Paste the account’s extended public key (xpub…).',
  'xpub',
);
const VERSION = refusedAbout(
  'Only the xpub form is read (not zpub, ypub or tpub): export the account’s key as xpub from the wallet.',
  'xpub',
);
const INVALID = refusedAbout(
  'This is not an extended public key: check it was copied whole (xpub…, 111 characters).',
  'xpub',
);
const NOT_ACCOUNT = refusedAbout(
  'Not an account’s key: paste the key of m/purpose’/coin_type’/account’ (e.g. m/44’/195’/0’), not a master key.',
  'xpub',
);

// The TRON account key of BIP-39's "abandon … about" seed (m/44'/195'/0'): its customer 0 is TRON's published
// TUEZSd… address, so a wallet restored from those words shows the addresses the console shows.
const seed = pbkdf2Sync(`${'abandon '.repeat(11)}about`, 'mnemonic', 2048, 64, 'sha512');
const account = HDKey.fromMasterSeed(seed).derive("m/44'/195'/0'");
const XPUB = account.publicExtendedKey;
const XPRV = account.privateExtendedKey;
const base58check = createBase58check(sha256);
/** The same key as a zpub (BIP-84's version bytes 0x04B24746), as a segwit wallet exports it. */
const ZPUB = base58check.encode(Uint8Array.of(0x04, 0xb2, 0x47, 0x46, ...base58check.decode(XPUB).subarray(4)));
/** A serialized key with other version bytes (BIP-32: testnet's tpub 0x043587CF, tprv 0x04358394). */
const asVersion = (key: string, version: number[]) =>
  base58check.encode(Uint8Array.of(...version, ...base58check.decode(key).subarray(4)));
const master = HDKey.fromMasterSeed(seed);
const TRC20 = '1';
const BANK = '4';

let h: Harness;
let admin: string;
let reviewer: string;
let seeded: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorToken(h, 'keykeeper', 'admin');
  reviewer = await operatorToken(h, 'keyreader', 'reviewer');
  seeded = (await storedKey())!;
});
afterAll(() => h.close());

const storedKey = async () =>
  (await h.database.db.select({ xpub: channelRows.xpub }).from(channelRows).where(eq(channelRows.id, 1)))[0]!.xpub;
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditAfter = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const shownAddress = async (token: string) =>
  (await h.call(rechargeChannels, {}, { token })).data.lists.find((channel) => channel.id === 1)!.address;

it('refuses a private key, a zpub, what is no key and a bank channel, and changes nothing', async () => {
  const audited = await lastAuditId();
  const cases: [Record<string, string>, unknown][] = [
    [{ id: TRC20, xpub: XPRV }, PRIVATE],
    [{ id: TRC20, xpub: ZPUB }, VERSION],
    [{ id: TRC20, xpub: XPUB.slice(0, -1) }, INVALID],
    [{ id: TRC20, xpub: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH' }, INVALID],
    [
      { id: BANK, xpub: XPUB },
      refused('Channel Bank transfer (THB) is not a crypto channel: it keeps no extended public key.'),
    ],
    [{ id: '999', xpub: XPUB }, refused('This record does not exist!')],
  ];
  for (const [input, answer] of cases) {
    expect(await h.call(consolePreviewChannelKey, input, { token: admin }), input.xpub).toEqual(answer);
    const replaces = input.id === TRC20 ? seeded : '';
    expect(await h.call(consoleSetChannelKey, { ...input, replaces }, { token: admin }), input.xpub).toEqual(answer);
  }
  expect(await h.call(consoleSetChannelKey, { id: TRC20, xpub: XPUB, replaces: seeded }, { token: reviewer })).toEqual(
    ROLE_REFUSED,
  );
  expect(await h.call(consoleRechargeChannels, {}, { token: reviewer })).toEqual(ROLE_REFUSED);
  expect(await storedKey()).toBe(seeded);
  expect(await auditAfter(audited)).toEqual([]);
});

it('refuses a key of another level than an account’s, or of another network, naming the field', async () => {
  // The path m/44'/195'/0'/0/<customer id> is derived from an account-level key (BIP-44's depth 3, hardened): the
  // wallet's master key (depth 0), its coin's key (depth 2), the account's external chain (depth 4) or a depth-3 key
  // reached without hardening would show customers addresses the wallet does not watch for that account.
  const audited = await lastAuditId();
  const cases: [string, string, unknown][] = [
    ['master', master.publicExtendedKey, NOT_ACCOUNT],
    ['coin', master.derive("m/44'/195'").publicExtendedKey, NOT_ACCOUNT],
    ['chain', account.deriveChild(0).publicExtendedKey, NOT_ACCOUNT],
    ['address', account.deriveChild(0).deriveChild(1).publicExtendedKey, NOT_ACCOUNT],
    ['unhardened', master.derive("m/44'/195'/0").publicExtendedKey, NOT_ACCOUNT],
    ['tpub', asVersion(XPUB, [0x04, 0x35, 0x87, 0xcf]), VERSION],
    ['tprv', asVersion(XPRV, [0x04, 0x35, 0x83, 0x94]), PRIVATE],
  ];
  for (const [name, xpub, answer] of cases) {
    expect(await h.call(consolePreviewChannelKey, { id: TRC20, xpub }, { token: admin }), name).toEqual(answer);
    expect(await h.call(consoleSetChannelKey, { id: TRC20, xpub, replaces: seeded }, { token: admin }), name).toEqual(
      answer,
    );
  }
  expect(await storedKey()).toBe(seeded);
  expect(await auditAfter(audited)).toEqual([]);
});

it('previews a key: its fingerprint and customer 1’s address, the one TRON wallets derive', async () => {
  const preview = await h.call(consolePreviewChannelKey, { id: TRC20, xpub: ` ${XPUB}\n` }, { token: admin });
  expect(preview).toMatchObject({
    ret: 1,
    data: {
      fingerprint: account.fingerprint.toString(16).padStart(8, '0'),
      sample_address: depositAddressOf('TRC20', XPUB, 1),
    },
  });
  expect(depositAddressOf('TRC20', XPUB, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  expect(await storedKey()).toBe(seeded);
});

it('a new key changes the address a customer is shown; a recharge already reported keeps its own', async () => {
  const user = await customer(h);
  const oldAddress = await shownAddress(user.token);
  expect(oldAddress).toBe(depositAddressOf('TRC20', seeded, user.id));
  const earlier = await cryptoRecharge(h, user.token, '10', TRC20);
  expect(earlier.address).toBe(oldAddress);
  const before = (await h.call(consoleRechargeChannels, {}, { token: admin })).data.find((c) => c.id === 1)!;

  const audited = await lastAuditId();
  const set = await h.call(consoleSetChannelKey, { id: TRC20, xpub: XPUB, replaces: seeded }, { token: admin });
  expect(set).toMatchObject({
    ret: 1,
    data: { id: 1, xpub: XPUB, sample_address: depositAddressOf('TRC20', XPUB, 1) },
  });
  const newAddress = await shownAddress(user.token);
  expect(newAddress).toBe(depositAddressOf('TRC20', XPUB, user.id));
  expect(newAddress).not.toBe(oldAddress);
  // The recharge reported before still names where that customer was told to pay, for them and for the reviewer.
  expect((await h.call(rechargeOrder, { id: String(earlier.id) }, { token: user.token })).data).toMatchObject({
    address: oldAddress,
  });
  expect((await h.call(consoleRecharge, { id: String(earlier.id) }, { token: reviewer })).data).toMatchObject({
    address: oldAddress,
  });
  // One reported now records the new address.
  expect((await cryptoRecharge(h, user.token, '11', TRC20)).address).toBe(newAddress);
  // A transfer made to the address shown before the change, reported after it with that address: recorded as paid
  // there (the old wallet is still the platform's), so the reviewer checks the transfer where it went.
  const report = (address: string) =>
    h.call(
      submitRecharge,
      { kind: 'crypto', channel_id: TRC20, amount: '12', hash: newHash(), address },
      { token: user.token },
    );
  expect((await report(oldAddress)).data).toMatchObject({ address: oldAddress });
  // An address the platform never showed this customer (another customer's, or made up) is refused, nothing recorded.
  const stranger = await customer(h);
  const unknown = refused(
    'This is not a deposit address of this method for your account: open the recharge page again!',
  );
  expect(await report(depositAddressOf('TRC20', XPUB, stranger.id))).toEqual(unknown);
  expect(await report(depositAddressOf('TRC20', seeded, stranger.id))).toEqual(unknown);
  expect(await report('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toEqual(unknown);
  // The customer's address under the replaced key, never reported in a recharge by anyone, is still the platform's
  // wallet: a transfer may still arrive there, so no withdrawal may go there.
  const other = await customer(h);
  const otherOld = depositAddressOf('TRC20', seeded, other.id);
  const ours = refused('This is a deposit address of the platform: a withdrawal must go to a wallet of your own!');
  expect(
    await h.call(
      addWallet,
      { alias: 'Old', currency: 'USDT', chain: 'TRC20', address: otherOld },
      { token: other.token },
    ),
  ).toEqual(ours);

  const [entry, ...more] = await auditAfter(audited);
  expect(more).toEqual([]);
  expect(entry).toMatchObject({
    operator: 'keykeeper',
    action: 'channel.key',
    target: 'channel:1',
    before: { key: { fingerprint: before.fingerprint, sample_address: before.sample_address } },
    after: { key: { fingerprint: set.data.fingerprint, sample_address: set.data.sample_address } },
  });
  expect(before.fingerprint).toMatch(/^[0-9a-f]{8}$/);
  expect(before.fingerprint).not.toBe(set.data.fingerprint);

  // Cleared: every customer is shown the channel's one address again, and the entry says the key is gone.
  const cleared = await h.call(consoleSetChannelKey, { id: TRC20, xpub: '', replaces: XPUB }, { token: admin });
  expect(cleared).toMatchObject({ ret: 1, data: { xpub: null, fingerprint: null, sample_address: null } });
  expect(await shownAddress(user.token)).toBe(cleared.data.address);
  expect((await auditAfter(audited)).at(-1)).toMatchObject({
    action: 'channel.key',
    before: { key: { fingerprint: set.data.fingerprint } },
    after: { key: null },
  });
  await h.call(consoleSetChannelKey, { id: TRC20, xpub: seeded, replaces: '' }, { token: admin });
});

it('refuses a change over a key another admin changed meanwhile; of two at once, one is saved', async () => {
  // Two admins read the channel with the seeded key in force; one saves another key. The other's save, made over the
  // key they saw, would undo it unseen: refused, nothing changed, no audit entry.
  const other = await operatorToken(h, 'keykeeper2', 'admin');
  const audited = await lastAuditId();
  const first = await h.call(consoleSetChannelKey, { id: TRC20, xpub: XPUB, replaces: seeded }, { token: admin });
  expect(first.ret).toBe(1);
  const meanwhile = refused(
    'Another admin changed the key of USDT (TRC20) meanwhile: nothing was saved. Check the key now in force.',
  );
  expect(await h.call(consoleSetChannelKey, { id: TRC20, xpub: '', replaces: seeded }, { token: other })).toEqual(
    meanwhile,
  );
  expect(await storedKey()).toBe(XPUB);
  expect(await auditAfter(audited)).toHaveLength(1);

  // Both at once over the same key in force: the channel's row is taken in turn, so exactly one change is made.
  const both = await Promise.all([
    h.call(consoleSetChannelKey, { id: TRC20, xpub: seeded, replaces: XPUB }, { token: admin }),
    h.call(consoleSetChannelKey, { id: TRC20, xpub: '', replaces: XPUB }, { token: other }),
  ]);
  expect(both.map((answer) => answer.ret).sort()).toEqual([0, 1]);
  expect(both.find((answer) => answer.ret === 0)).toEqual(meanwhile);
  const saved = both.find((answer) => answer.ret === 1)!;
  expect(await storedKey()).toBe(saved.data.xpub);
  expect(await auditAfter(audited)).toHaveLength(2);
  await h.call(consoleSetChannelKey, { id: TRC20, xpub: seeded, replaces: saved.data.xpub ?? '' }, { token: admin });
});
