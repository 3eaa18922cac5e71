// @vitest-environment node
// RECEIPTS.md's checks followed to the letter by someone outside the platform: its node:crypto script and its OpenSSL
// and jq commands, copied from the page and run on a receipt and the published keys, say valid for a receipt as
// signed and not valid for one changed by a byte or signed by a key after it was replaced (as a copy that leaked
// would sign). The OpenSSL commands run where `openssl` and `jq` are installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { receiptKeyRing } from '../../src/server/domain/receipt-keys.ts';
import type { ReceiptKey, SignedReceipt } from '../../src/api-contract/receipts.ts';
import { optionReceiptBody } from './helpers.ts';

const page = readFileSync('src/server/domain/RECEIPTS.md', 'utf8');
const block = (heading: string, language: string) => {
  const start = page.indexOf(`${heading}\n\n\`\`\`${language}\n`);
  expect(start).toBeGreaterThan(-1);
  const body = page.indexOf('\n', page.indexOf('```', start)) + 1;
  return page.slice(body, page.indexOf('```', body));
};
const folder = mkdtempSync(join(tmpdir(), 'receipts-doc-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Key A signed until key B replaced it on 1 June.
const ring = receiptKeyRing([
  { seed: Buffer.alloc(32, 0xa1), validFrom: new Date('2026-01-01T00:00:00.000Z') },
  { seed: Buffer.alloc(32, 0xb2), validFrom: new Date('2026-06-01T00:00:00.000Z') },
]);
const [keyA, keyB] = ring.published();
const signedBy = (keyId: string, signedAt: string): SignedReceipt => {
  const receipt = optionReceiptBody(keyId, signedAt);
  return { receipt, signature: ring.sign(keyId, receipt) };
};
// The same keys as published once key A was revoked (a copy of it may have leaked).
const revokedA = ring
  .published()
  .map((key) => (key.id === keyA!.id ? { ...key, revoked_at: '2026-12-01T00:00:00.000Z' } : key));
const cases: [string, SignedReceipt, boolean, ReceiptKey[]?][] = [
  ['as signed by the key signing then', signedBy(keyB!.id, '2026-11-22T08:01:07.000Z'), true],
  ['as signed by the old key before it was replaced', signedBy(keyA!.id, '2026-05-31T23:59:59.999Z'), true],
  [
    'with its payout changed by a byte',
    (() => {
      const signed = signedBy(keyB!.id, '2026-11-22T08:01:07.000Z');
      return { ...signed, receipt: { ...signed.receipt, payout: '19' } };
    })(),
    false,
  ],
  ['signed by the old key after it was replaced', signedBy(keyA!.id, '2026-11-22T08:01:07.000Z'), false],
  [
    'signed by the old key in its period, the key revoked since',
    signedBy(keyA!.id, '2026-05-31T23:59:59.999Z'),
    false,
    revokedA,
  ],
];

/** receipt.json and keys.json in a folder of their own, as the page's commands expect them. */
function files(name: string, signed: SignedReceipt, keys = ring.published()): string {
  const place = mkdtempSync(join(folder, `${name.replace(/\W+/g, '-')}-`));
  writeFileSync(join(place, 'receipt.json'), JSON.stringify(signed, null, 2));
  writeFileSync(join(place, 'keys.json'), JSON.stringify({ keys }));
  return place;
}

it.each(cases)('the node:crypto script says whether a receipt %s is valid', (name, signed, valid, keys) => {
  const place = files(name, signed, keys);
  writeFileSync(join(place, 'verify-receipt.mjs'), block('### With Node.js (node:crypto)', 'js'));
  const said = execFileSync(process.execPath, ['verify-receipt.mjs', 'receipt.json', 'keys.json'], { cwd: place });
  expect(said.toString().trim()).toEqual(valid ? 'Signature valid' : expect.stringMatching(/NOT valid$/));
});

const tools = [
  ['openssl', 'version'],
  ['jq', '--version'],
].every(([tool, version]) => spawnSync(tool!, [version!]).status === 0);
it.skipIf(!tools).each(cases)(
  'the OpenSSL and jq commands say whether a receipt %s is valid',
  (name, signed, valid, keys) => {
    const place = files(name, signed, keys);
    // keys.json is there already, as the first command (curl) would fetch it.
    const commands = block('### With OpenSSL 3 and jq', 'sh').replace(/^curl .*\n/m, '');
    const said = spawnSync('sh', ['-c', commands], { cwd: place, encoding: 'utf8' });
    const lines = `${said.stdout}${said.stderr}`.trim().split('\n');
    if (valid) expect(lines.slice(-2)).toEqual(['Signature Verified Successfully', "Signed within the key's period"]);
    else if (keys) expect(lines.at(-1)).toBe('Signed by a revoked key: NOT valid');
    else expect(lines.some((line) => /Signature Verification Failure|NOT valid/.test(line))).toBe(true);
  },
);
