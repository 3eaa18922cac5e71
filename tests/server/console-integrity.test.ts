// The integrity line in the console: no console call sets an outcome or a price, or moves a
// balance other than through a reviewed order's own ledger entries. Walks every endpoint declared
// in api-contract/console*.ts (one added later fails here until it is listed, and so reviewed): each is a
// read that writes nothing, or one of the known review and admin actions, which leaves exactly one
// audit entry and only its order's ledger entries; no input names a price or an outcome (the admin's
// product terms, for orders to come, are listed and reviewed); after a run of all of them the ledger
// still equals the balances, no placed order, price or tick has moved, and products and pairs differ
// only by the terms the admin sent; no blind box seed or draw has moved, a customer's committed next
// draws keep their table, and the prize table in force before differs only by being retired.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc, count, gt } from 'drizzle-orm';
import { HDKey } from '@scure/bip32';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { addCard, cryptoRecharge, uploadedPicture, withdrawn } from './funds-helpers.ts';
import { NEW_PASSWORD, codeFrom, enrolled, operatorToken } from './console-helpers.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { inputFields, type DeclaredEndpoint } from '../../src/api-contract/registry.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { consoleCertifications } from '../../src/api-contract/console.ts';
import { consoleRechargeChannels } from '../../src/api-contract/console-channels.ts';
import { optionProducts as productList, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { sendChatMessage } from '../../src/api-contract/service-chat.ts';
import { blindBoxInfo, drawBlindBox } from '../../src/api-contract/blindbox.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { seedWelfare } from '../../src/server/db/seed-welfare.ts';
import {
  auditLog,
  balances,
  boxDraws,
  boxPrizes,
  boxSeeds,
  contractOrders,
  serviceConversations,
  contractPairs,
  ledgerEntries,
  optionOrders,
  optionProducts,
  priceTicks,
  checkIns,
  welfareClaims,
} from '../../src/server/db/schema.ts';

/** The console's only writes, and the ledger entry kinds each may post (none but a reviewed order's own). */
const WRITES: Record<string, string[]> = {
  consoleSignIn: [],
  consoleChangePassword: [],
  consoleSignOut: [],
  consoleApproveRecharge: ['recharge'],
  consoleRejectRecharge: [],
  consoleApproveWithdrawal: ['withdraw_paid'],
  consoleRejectWithdrawal: ['withdraw_return'],
  consoleApproveCertification: [],
  consoleRejectCertification: [],
  consoleAddOperator: [],
  consoleDisableOperator: [],
  consoleSaveContentVersion: [],
  consoleChangeOptionProduct: [],
  consoleChangeContractPair: [],
  consoleAssignConversation: [],
  consoleReplyConversation: [],
  consoleCloseConversation: [],
  consoleUnassignConversation: [],
  consoleAddServiceNote: [],
  consoleAnswering: [],
  consoleAddCannedReply: [],
  consoleRemoveCannedReply: [],
  consoleSetCheckInLadder: [],
  consoleChangeWelfareTask: [],
  consolePublishPrizeTable: [],
  consoleRestockPrize: [],
  consoleSetDrawCost: [],
  consoleSetReferralReward: [],
  consoleChangeHouseCaps: [],
  consoleSetChannelKey: [],
  consoleClaimItem: [],
  consoleReleaseItem: [],
  consoleClaimNext: [],
};
/**
 * Writes that leave no audit entry, reviewed: an internal note is its own record (author and time, never
 * changed, never shown to the customer), and "who is answering" is a warning that runs out in seconds.
 */
const NOT_AUDITED = new Set([
  'consoleAddServiceNote',
  'consoleAnswering',
  // A claim on a review item is advice that runs out in minutes; only taking over another's claim is audited.
  'consoleClaimItem',
  'consoleReleaseItem',
  'consoleClaimNext',
]);
/**
 * Reads sent as a POST, reviewed: a channel key's preview carries an extended public key, which names every address of
 * the platform's wallet, so it stays out of URLs (access logs, proxies, the browser's history).
 */
const READS_BY_POST = new Set(['consolePreviewChannelKey']);
/** No console input may carry what decides a trade or a balance. */
const FORBIDDEN_FIELD = /price|outcome|result|payout|profit|balance|amount|rate|yield|quantity|asset/i;
/**
 * The exceptions, reviewed: an option product's yield is a term of orders placed from now on (the
 * admin edits option products), never a placed order's; the asset a welfare task pays is a term of
 * claims to come (the content role edits welfare), never a paid claim's; the referral reward's amount is a term
 * of certifications verified from now on, never of a reward paid; the run below shows placed
 * orders and paid claims unchanged. (A prize table travels as one written field, `table`: the prizes
 * and odds of draws on seeds committed later, never of a committed seed's next draws, as the run shows.)
 */
const TERMS_OF_ORDERS_TO_COME: Record<string, string[]> = {
  consoleChangeOptionProduct: ['yield'],
  consoleChangeWelfareTask: ['asset'],
  consoleSetReferralReward: ['amount'],
};

/** A wallet account's extended public key (BIP-32, m/44'/195'/0' of a fixed seed), as an admin would paste it. */
const CHANNEL_KEY = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/195'/0'").publicExtendedKey;

let h: Harness;
let calls: DeclaredEndpoint[];
beforeAll(async () => {
  h = await startHarness();
  calls = (await declaredEndpoints()).filter((call) => call.module.startsWith('console'));
});
afterAll(() => h.close());

it('declares only reads and the known review and admin actions, none taking a price or an outcome', () => {
  expect(calls.filter((call) => !call.endpoint.readOnly).map((call) => call.name)).toEqual(
    expect.arrayContaining(Object.keys(WRITES)),
  );
  expect(calls.filter((call) => !call.endpoint.readOnly).length).toBe(Object.keys(WRITES).length);
  for (const call of calls) {
    if (call.endpoint.readOnly)
      expect(call.endpoint.method, call.name).toBe(READS_BY_POST.has(call.name) ? 'POST' : 'GET');
    expect(
      inputFields(call.endpoint.input).filter(
        (field) => FORBIDDEN_FIELD.test(field) && !TERMS_OF_ORDERS_TO_COME[call.name]?.includes(field),
      ),
      call.name,
    ).toEqual([]);
  }
});

it('runs every console call: reads write nothing, each action leaves one audit entry and only its order’s ledger entries', async () => {
  const db = h.database.db;
  const reviewer = await operatorToken(h, 'rita', 'reviewer');
  const admin = await operatorToken(h, 'adam', 'admin');
  const writer = await operatorToken(h, 'cora', 'content');
  const newcomer = await enrolled(h, 'nina', 'reviewer');

  const buyer = await customer(h, '1000');
  const card = await addCard(h, buyer.token);
  const [toApprove, toReject] = [
    await cryptoRecharge(h, buyer.token, '30'),
    await cryptoRecharge(h, buyer.token, '40'),
  ];
  const [payOut, sendBack] = [
    await withdrawn(h, buyer.token, { target: 'bank', target_id: String(card.id), amount: '100' }),
    await withdrawn(h, buyer.token, { target: 'bank', target_id: String(card.id), amount: '50' }),
  ];
  const certified = async () => {
    const user = await customer(h);
    const image = await uploadedPicture(h, user.token);
    await h.call(
      submitCertification,
      { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
      { token: user.token },
    );
    return user.id;
  };
  await certified();
  await certified();
  const [first, second] = (await h.call(consoleCertifications, {}, { token: reviewer })).data;
  // Orders already placed, whose terms the admin's product and pair changes must leave alone.
  await h.tick();
  const product = (await h.call(productList, { code: 'BTC' })).data.lists[0]!;
  expect(
    (
      await h.call(
        placeOption,
        { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) },
        { token: buyer.token },
      )
    ).ret,
  ).toBe(1);
  h.clock.advance(1_000);
  await h.market.record([{ coin: 'TRX', at: h.clock.now(), price: '0.20000', volume: '1' }]);
  const resting = await h.call(
    placeContract,
    { code: 'TRX', side: 'buy', type: 'limit', price: '0.19000', quantity: '100' },
    { token: buyer.token },
  );
  expect(resting.ret, resting.msg).toBe(1);
  const question = await h.call(sendChatMessage, { body: 'Where is my withdrawal?' }, { token: buyer.token });
  const conversation = String((await db.select().from(serviceConversations))[0]!.id);
  expect(question).toMatchObject({ ret: 1 });
  // A blind box draw already made, and the buyer's seed committed to the table its next draws use.
  await seedBlindBox(db, h.clock.now());
  await seedWelfare(db);
  expect((await h.call(drawBlindBox, { pay: 'usdt' }, { token: buyer.token })).ret).toBe(1);
  const committed = (await h.call(blindBoxInfo, {}, { token: buyer.token })).data;

  const channelKeyInForce =
    (await h.call(consoleRechargeChannels, {}, { token: admin })).data.find((channel) => channel.id === 1)!.xpub ?? '';
  let nina = '';
  /** Each call: its input and the token it is made with, in an order where every one succeeds. */
  const plan: Record<string, () => { input: Record<string, string>; token?: string }> = {
    consoleSignIn: () => ({ input: { name: 'nina', password: newcomer.password, code: codeFrom(newcomer.uri, h) } }),
    consoleMe: () => ({ input: {}, token: nina }),
    consoleChangePassword: () => ({ input: { password: newcomer.password, new_password: NEW_PASSWORD }, token: nina }),
    consoleQueues: () => ({ input: {}, token: reviewer }),
    consoleHouse: () => ({ input: {}, token: admin }),
    consoleChangeHouseCaps: () => ({ input: { per_order: '60000' }, token: admin }),
    consoleRechargeChannels: () => ({ input: {}, token: admin }),
    consolePreviewChannelKey: () => ({ input: { id: '1', xpub: CHANNEL_KEY }, token: admin }),
    consoleSetChannelKey: () => ({ input: { id: '1', xpub: CHANNEL_KEY, replaces: channelKeyInForce }, token: admin }),
    consoleQueue: () => ({ input: { kind: 'withdrawal', query: '' }, token: reviewer }),
    consoleClaimItem: () => ({ input: { kind: 'recharge', id: String(toApprove.id) }, token: reviewer }),
    consoleReleaseItem: () => ({ input: { kind: 'recharge', id: String(toApprove.id) }, token: reviewer }),
    consoleClaimNext: () => ({ input: { kind: 'recharge' }, token: reviewer }),
    consoleRecharges: () => ({ input: { status: 'all' }, token: reviewer }),
    consoleRecharge: () => ({ input: { id: String(toApprove.id) }, token: reviewer }),
    consoleApproveRecharge: () => ({ input: { id: String(toApprove.id) }, token: reviewer }),
    consoleRejectRecharge: () => ({
      input: { id: String(toReject.id), reason: 'No transfer arrived' },
      token: reviewer,
    }),
    consoleWithdrawals: () => ({ input: {}, token: reviewer }),
    consoleWithdrawal: () => ({ input: { id: String(payOut.id) }, token: reviewer }),
    consoleApproveWithdrawal: () => ({ input: { id: String(payOut.id) }, token: reviewer }),
    consoleRejectWithdrawal: () => ({
      input: { id: String(sendBack.id), reason: 'Payee name differs' },
      token: reviewer,
    }),
    consoleCertifications: () => ({ input: { status: 'all' }, token: reviewer }),
    consoleCertification: () => ({ input: { id: String(first!.id) }, token: reviewer }),
    consoleApproveCertification: () => ({ input: { id: String(first!.id) }, token: reviewer }),
    consoleRejectCertification: () => ({
      input: { id: String(second!.id), reason: 'Picture unreadable' },
      token: reviewer,
    }),
    consoleFindCustomers: () => ({ input: { query: buyer.phone }, token: reviewer }),
    consolePhoneDuplicates: () => ({ input: {}, token: reviewer }),
    consoleFrozenAccounts: () => ({ input: {}, token: reviewer }),
    consoleCustomer: () => ({ input: { id: String(buyer.id) }, token: reviewer }),
    consoleCustomerHistory: () => ({ input: { id: String(buyer.id) }, token: reviewer }),
    consoleOperators: () => ({ input: {}, token: admin }),
    consoleAddOperator: () => ({ input: { name: 'otto', role: 'content' }, token: admin }),
    consoleDisableOperator: () => ({ input: { name: 'otto' }, token: admin }),
    consoleAuditLog: () => ({ input: {}, token: admin }),
    consoleSystem: () => ({ input: {}, token: admin }),
    consoleContentItems: () => ({ input: { kind: 'notice' }, token: writer }),
    consoleContentVersions: () => ({ input: { kind: 'notice', id: 'scroll_notice' }, token: writer }),
    consoleSaveContentVersion: () => ({
      input: { kind: 'notice', id: 'scroll_notice', lang: 'ar', body: 'إشعار' },
      token: writer,
    }),
    consoleOptionProducts: () => ({ input: {}, token: admin }),
    consoleChangeOptionProduct: () => ({ input: { id: String(product.id), yield: '0.9' }, token: admin }),
    consoleContractPairs: () => ({ input: {}, token: admin }),
    consoleChangeContractPair: () => ({ input: { coin: 'TRX', fee: '0.002' }, token: admin }),
    consoleConversations: () => ({ input: { view: 'waiting' }, token: reviewer }),
    consoleConversation: () => ({ input: { id: conversation }, token: reviewer }),
    consoleAssignConversation: () => ({ input: { id: conversation }, token: reviewer }),
    consoleReplyConversation: () => ({
      input: { id: conversation, body: 'It was paid out this morning.' },
      token: reviewer,
    }),
    consoleServiceOperators: () => ({ input: {}, token: reviewer }),
    consoleAnswering: () => ({ input: { id: conversation }, token: reviewer }),
    consoleAddServiceNote: () => ({ input: { id: conversation, body: 'Asked twice already.' }, token: reviewer }),
    consoleUnassignConversation: () => ({ input: { id: conversation }, token: reviewer }),
    consoleCloseConversation: () => ({ input: { id: conversation }, token: reviewer }),
    consoleCannedReplies: () => ({ input: {}, token: reviewer }),
    consoleAddCannedReply: () => ({ input: { title: 'Greeting', body: 'Hello, how can we help?' }, token: reviewer }),
    consoleRemoveCannedReply: () => ({ input: { id: cannedId() }, token: reviewer }),
    consoleCheckInLadder: () => ({ input: {}, token: writer }),
    consoleSetCheckInLadder: () => ({ input: { ladder: '5,5,10,10,15,20,40' }, token: writer }),
    consoleWelfareTasks: () => ({ input: {}, token: writer }),
    consoleChangeWelfareTask: () => ({ input: { code: 'first_option', reward: '40' }, token: writer }),
    consoleBlindBox: () => ({ input: {}, token: writer }),
    consoleReferralReward: () => ({ input: {}, token: writer }),
    consolePublishPrizeTable: () => ({
      input: { table: 'Win:POINT:10:400000;Thanks for playing:POINT:0:600000' },
      token: writer,
    }),
    consoleRestockPrize: () => ({ input: { id: publishedId(), stock: '9' }, token: writer }),
    consoleSetDrawCost: () => ({ input: { points: '90' }, token: writer }),
    consoleSetReferralReward: () => ({ input: { amount: '0' }, token: writer }),
    consoleSignOut: () => ({ input: {}, token: nina }),
  };
  let canned = '';
  const cannedId = () => canned;
  let published = '';
  const publishedId = () => published;
  expect(Object.keys(plan).sort()).toEqual(calls.map((call) => call.name).sort());

  const untouched = async () => ({
    options: await db.select().from(optionOrders).orderBy(asc(optionOrders.id)),
    contracts: await db.select().from(contractOrders).orderBy(asc(contractOrders.id)),
    ticks: await db.select({ n: count() }).from(priceTicks),
    products: await db.select().from(optionProducts).orderBy(asc(optionProducts.id)),
    pairs: await db.select().from(contractPairs).orderBy(asc(contractPairs.coin)),
    seeds: await db.select().from(boxSeeds).orderBy(asc(boxSeeds.id)),
    draws: await db.select().from(boxDraws).orderBy(asc(boxDraws.id)),
    prizes: await db.select().from(boxPrizes).orderBy(asc(boxPrizes.id)),
    claims: await db.select().from(welfareClaims).orderBy(asc(welfareClaims.userId), asc(welfareClaims.taskCode)),
    checkIns: await db.select().from(checkIns).orderBy(asc(checkIns.userId), asc(checkIns.day)),
  });
  const before = await untouched();
  const byName = new Map(calls.map((call) => [call.name, call]));
  for (const name of Object.keys(plan)) {
    const { endpoint } = byName.get(name)!;
    const { input, token } = plan[name]!();
    const lastEntry =
      (await db.select({ id: ledgerEntries.id }).from(ledgerEntries).orderBy(asc(ledgerEntries.id))).at(-1)?.id ?? 0;
    const lastAudit = (await db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
    const balancesBefore = await db.select().from(balances).orderBy(asc(balances.userId), asc(balances.asset));
    const answer = await h.call(endpoint, input, { token });
    expect(answer, `${name}: ${JSON.stringify(answer)}`).toMatchObject({ ret: 1 });
    if (name === 'consoleSignIn') nina = (answer.data as { token: string }).token;
    if (name === 'consoleAddCannedReply') canned = String((answer.data as { id: number }).id);
    if (name === 'consolePublishPrizeTable')
      published = String((answer.data as { prizes: { id: number }[] }).prizes[0]!.id);

    const entries = await db.select().from(ledgerEntries).where(gt(ledgerEntries.id, lastEntry));
    const audits = await db.select().from(auditLog).where(gt(auditLog.id, lastAudit));
    if (endpoint.readOnly) {
      expect([entries, audits], name).toEqual([[], []]);
      expect(await db.select().from(balances).orderBy(asc(balances.userId), asc(balances.asset)), name).toEqual(
        balancesBefore,
      );
    } else if (NOT_AUDITED.has(name)) {
      expect([entries, audits], name).toEqual([[], []]);
    } else {
      expect(audits, name).toHaveLength(1);
      expect(audits[0]!.before !== undefined && audits[0]!.after !== undefined, name).toBe(true);
      expect([...new Set(entries.map((entry) => entry.kind))], name).toEqual(WRITES[name]);
      // Every entry is the reviewed order's own.
      for (const entry of entries)
        expect(entry.reference, name).toBe(`${name.includes('Recharge') ? 'recharge' : 'withdraw'}:${input.id}`);
    }
  }
  const after = await untouched();
  expect([before.options.length, before.contracts.length, before.draws.length, before.seeds.length]).toEqual([
    1, 1, 1, 1,
  ]);
  expect({ ...after, products: null, pairs: null, prizes: null }).toEqual({
    ...before,
    products: null,
    pairs: null,
    prizes: null,
  });
  // The prize table in force before is retired, nothing else about it changed; the new one is added.
  expect(after.prizes.slice(0, before.prizes.length)).toEqual(before.prizes.map((row) => ({ ...row, active: false })));
  expect(
    after.prizes
      .slice(before.prizes.length)
      .map(({ name, weight, stock, active }) => ({ name, weight, stock, active })),
  ).toEqual([
    { name: 'Win', weight: 400_000, stock: 9, active: true },
    { name: 'Thanks for playing', weight: 600_000, stock: null, active: true },
  ]);
  // The buyer's committed next draws keep the table (and the seed) they committed to.
  expect((await h.call(blindBoxInfo, {}, { token: buyer.token })).data).toMatchObject({
    prizes: committed.prizes,
    seed: committed.seed,
    table_current: false,
  });
  // Products and pairs: only the term each change sent, on the row it named.
  expect(after.products).toEqual(
    before.products.map((row) => (row.id === product.id ? { ...row, yieldRate: '0.9000' } : row)),
  );
  expect(after.pairs).toEqual(before.pairs.map((row) => (row.coin === 'TRX' ? { ...row, feeRate: '0.002000' } : row)));
  await expectLedgerBalanced(h);
});
