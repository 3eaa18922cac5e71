// Every `npm run ops` command that moves money or changes what customers see leaves one audit entry, as the console's
// actions do: operator 'ops', address 'local', the action, its target and the record before and after, written in the
// command's own transaction (src/console/README.md: Audit log).
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, tinyPng, uploadFile } from './helpers.ts';
import { addTronWallet, cryptoRecharge, opsOk, withdrawn } from './funds-helpers.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { auditLog } from '../../src/server/db/schema.ts';

let h: Harness;
let folder: string;
beforeAll(async () => {
  h = await startHarness();
  folder = mkdtempSync(join(tmpdir(), 'coinvest-ops-audited-'));
});
afterAll(async () => {
  await h.close();
  rmSync(folder, { recursive: true, force: true });
});

const lastId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;

/** Runs the command; answers the one audit entry it wrote (and checks there is exactly one, of the command line). */
async function audited(...argv: string[]) {
  const since = await lastId();
  await opsOk(h, ...argv);
  const entries = await h.database.db.select().from(auditLog).where(gt(auditLog.id, since)).orderBy(asc(auditLog.id));
  expect(entries, argv.join(' ')).toHaveLength(1);
  expect(entries[0], argv.join(' ')).toMatchObject({ operator: 'ops', address: 'local' });
  return entries[0]!;
}

const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

it('credit: the balance before and after', async () => {
  const user = await customer(h, '100');
  const entry = await audited('credit', user.phone, 'USDT', '250.5');
  expect(entry).toMatchObject({
    action: 'balance.test-credit',
    target: `user:${user.id}`,
    before: { asset: 'USDT', available: expect.stringMatching(/^100(\.0+)?$/) },
    after: { asset: 'USDT', amount: '250.5', available: expect.stringMatching(/^350\.50*$/) },
  });
});

it('ladder: the day’s ladder before (none, then the first) and after', async () => {
  const first = await audited('ladder', '2099-02-01', '1000:0.06,*:0.03');
  expect(first).toMatchObject({
    action: 'ladder.publish',
    target: 'ladder:2099-02-01',
    before: null,
    after: {
      ladder: [
        { up_to: '1000', rate: '0.06' },
        { up_to: null, rate: '0.03' },
      ],
    },
  });
  const second = await audited('ladder', '2099-02-01', '*:0.02');
  expect(second).toMatchObject({ before: first.after, after: { ladder: [{ up_to: null, rate: '0.02' }] } });
});

it('lockup: the product’s terms before and after', async () => {
  const entry = await audited('lockup', '1', 'days=45');
  expect(entry).toMatchObject({ action: 'lockup.change', target: 'lockup:1', after: { id: 1, days: 45 } });
  expect((entry.before as { days: number }).days).not.toBe(45);
});

it('invite grant and revoke: the permission before and after, with the reason', async () => {
  const user = await customer(h);
  const granted = await audited('invite', 'grant', user.phone, 'Partner programme');
  expect(granted).toMatchObject({
    action: 'invite.grant',
    target: `user:${user.id}`,
    before: { operator: false },
    after: { operator: true, reason: 'Partner programme' },
  });
  const revoked = await audited('invite', 'revoke', user.phone, 'Programme ended');
  expect(revoked).toMatchObject({
    action: 'invite.revoke',
    before: { operator: true },
    after: { operator: false, reason: 'Programme ended' },
  });
});

it('service: the link and the hosts before and after', async () => {
  const entry = await audited('service', 'url=https://help.example.com/chat', 'hosts=help.example.com');
  expect(entry).toMatchObject({
    action: 'service.link',
    target: 'service-link',
    after: { url: 'https://help.example.com/chat', hosts: ['help.example.com'] },
  });
  expect(entry.before).toEqual(expect.objectContaining({ hosts: expect.any(Array) }));
});

it('page: the page’s title and text before and after', async () => {
  await audited('page', 'about', 'th', 'เกี่ยวกับเรา', file('about-1.txt', 'First text.'));
  const entry = await audited('page', 'about', 'th', 'เกี่ยวกับเรา', file('about-2.txt', 'Second text.'));
  expect(entry).toMatchObject({
    action: 'page.save',
    target: 'page:about:th',
    before: { title: 'เกี่ยวกับเรา', body: 'First text.' },
    after: { title: 'เกี่ยวกับเรา', body: 'Second text.' },
  });
});

it('activity add and change: the activity before and after', async () => {
  const added = await audited(
    'activity',
    'add',
    'Winter week',
    'from=2026-12-01',
    `body=${file('a.html', '<p>Hi</p>')}`,
  );
  expect(added).toMatchObject({ action: 'activity.add', before: null, after: { title: 'Winter week', active: true } });
  const id = (added.after as { id: number }).id;
  expect(added.target).toBe(`activity:${id}`);
  const changed = await audited('activity', String(id), 'active=false');
  expect(changed).toMatchObject({
    action: 'activity.change',
    target: `activity:${id}`,
    before: { active: true },
    after: { active: false },
  });
});

it('message: the post to everyone or one customer', async () => {
  const user = await customer(h);
  const entry = await audited('message', user.phone, 'Hello', 'A message for you');
  expect(entry).toMatchObject({
    action: 'message.post',
    before: null,
    after: { to: `user:${user.id}`, title: 'Hello', content: 'A message for you' },
  });
  expect(entry.target).toMatch(/^message:\d+$/);
});

it('the commands audited before: product, pair and the scroll notice', async () => {
  expect(await audited('product', '1', 'yield=0.81')).toMatchObject({ action: 'product.change', after: {} });
  expect(await audited('pair', 'BTC', 'band=0.15')).toMatchObject({ action: 'pair.change' });
  expect(await audited('notice', '--lang', 'zh', '新的公告')).toMatchObject({ action: 'content.version' });
});

it('the reviews: a recharge, a withdrawal and a certification, approved and rejected', async () => {
  const user = await customer(h, '100');
  const approved = await cryptoRecharge(h, user.token, '20');
  expect(await audited('recharge', 'approve', String(approved.id))).toMatchObject({
    action: 'recharge.approve',
    before: { status: 'pending' },
    after: { status: 'success' },
  });
  const rejected = await cryptoRecharge(h, user.token, '30');
  expect(await audited('recharge', 'reject', String(rejected.id), 'No payment arrived')).toMatchObject({
    action: 'recharge.reject',
    before: { status: 'pending' },
    after: { status: 'rejected' },
  });

  const wallet = await addTronWallet(h, user.token);
  const paid = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' });
  expect(await audited('withdrawal', 'approve', String(paid.id))).toMatchObject({
    action: expect.stringMatching(/^withdrawal\.approve/),
    before: { status: 'review' },
  });
  const returned = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' });
  expect(await audited('withdrawal', 'reject', String(returned.id), 'Name does not match')).toMatchObject({
    action: 'withdrawal.reject',
    before: { status: 'review' },
    after: { status: 'fail' },
  });

  const picture = await uploadFile(h, user.token, { bytes: tinyPng(), name: 'id.png', type: 'image/png' });
  const primary = { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765431' };
  expect((await h.call(submitCertification, { ...primary, image: picture.data.url }, { token: user.token })).ret).toBe(
    1,
  );
  const list = await opsOk(h, 'certifications');
  const id = /^(\d+)\s/m.exec(list.split('\n').slice(2).join('\n'))![1]!;
  expect(await audited('certification', 'reject', id, 'Photo unreadable')).toMatchObject({
    action: 'certification.reject',
    before: { status: 'review' },
    after: { status: 'rejected' },
  });
});

it('the rewards and the operators: check-in ladder, welfare, the cost of a draw, operator add and disable', async () => {
  expect(await audited('check-in-ladder', '5,5,10')).toMatchObject({
    action: 'signin.ladder',
    after: expect.anything(),
  });
  expect(await audited('blindbox-cost', 'usdt=2')).toMatchObject({
    action: 'blindbox.cost',
    before: expect.anything(),
  });
  expect(await audited('operator', 'add', 'auditee', 'reviewer')).toMatchObject({
    action: 'operator.add',
    before: null,
    after: { name: 'auditee', role: 'reviewer' },
  });
  expect(await audited('operator', 'disable', 'auditee')).toMatchObject({
    action: 'operator.disable',
    before: { disabled_at: null },
    after: { disabled_at: expect.any(String) },
  });
});
