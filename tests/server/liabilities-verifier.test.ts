// The stand-alone verifier as a customer gets it: served by the platform at /.well-known/liabilities-verify.mjs (no
// session, any origin), and that file alone, saved and run with node, says "verified" for a customer's proof against
// the published root and why not for a changed one, wherever and under whatever name the browser saved it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIABILITIES_VERIFIER_PATH, liabilityRoots, myLiabilityProof } from '../../src/api-contract/liabilities.ts';
import { COMMAND_LINE } from '../../src/server/domain/audit-log.ts';
import { buildLiabilitiesNow, liabilityProofOf } from '../../src/server/domain/liabilities.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';

let h: Harness;
let folder: string;
beforeAll(async () => {
  h = await startHarness();
  folder = mkdtempSync(join(tmpdir(), 'coinvest-verifier-'));
}, 240_000);
afterAll(async () => {
  await h.close();
  rmSync(folder, { recursive: true, force: true });
});

it('serves the verifier, which run on its own says verified for a proof and refuses a changed one', async () => {
  const holder = await customer(h, '1234.5');
  await customer(h, '77');
  h.clock.advance(1000);
  await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  const { data } = await h.call(myLiabilityProof, {}, { token: holder.token });
  const roots = await h.call(liabilityRoots);
  const root = roots.data.lists.find((tree) => tree.id === data.proof.tree)!.root;

  const response = await h.app.inject({ method: 'GET', url: LIABILITIES_VERIFIER_PATH });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  const forged = structuredClone(data.proof);
  forged.leaf.sums = forged.leaf.sums.map((sum) => (BigInt(sum) * 2n).toString());
  // Saved as a browser saves it: under its own name, or a second download's name in a folder whose path has a space
  // (a Windows user's "C:\Users\First Last\Downloads"), where it must not say nothing and exit 0.
  for (const [place, name] of [
    [folder, 'liabilities-verify.mjs'],
    [join(folder, 'My Downloads'), 'liabilities-verify (1).mjs'],
  ] as const) {
    mkdirSync(place, { recursive: true });
    const script = join(place, name);
    writeFileSync(script, response.body);
    const real = join(place, 'proof.json');
    writeFileSync(real, JSON.stringify(data.proof));
    const changed = join(place, 'changed.json');
    writeFileSync(changed, JSON.stringify(forged));

    // Run from its own folder, as a customer who saved it would: nothing of the repository is reachable from there.
    const run = promisify(execFile);
    const ok = await run(process.execPath, [script, real, root], { cwd: place });
    expect(ok.stdout.split('\n')[0]).toBe('verified');
    await expect(run(process.execPath, [script, changed, root], { cwd: place })).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('NOT verified (root)'),
    });
  }
}, 180_000);

it('checked against the saved list of published roots, it names what it verified and refuses what the list belies', async () => {
  const holder = await customer(h, '250.125');
  h.clock.advance(1000);
  const older = await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  h.clock.advance(1000);
  const newest = await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  const { proof } = (await h.call(myLiabilityProof, {}, { token: holder.token })).data;
  expect(proof.tree).toBe(newest.id);
  const files = {
    'liabilities-verify.mjs': (await h.app.inject({ method: 'GET', url: LIABILITIES_VERIFIER_PATH })).body,
    // The list as the app's link serves it: the API's answer, saved as it is.
    'roots.json': (await h.app.inject({ method: 'GET', url: `/api${liabilityRoots.path}` })).body,
    'proof.json': JSON.stringify(proof),
    // Read with 7 decimals the leaf would show ten times what the published totals count for it.
    'decimals.json': JSON.stringify({ ...proof, decimals: 7 }),
    // The customer's leaf in the tree before: a platform could answer it and leave them out of the newest.
    'older.json': JSON.stringify((await liabilityProofOf(h.database.db, holder.id, older.id)).proof),
  };
  const place = join(folder, 'with-roots');
  mkdirSync(place);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(place, name), text);
  const run = (file: string) =>
    promisify(execFile)(process.execPath, ['liabilities-verify.mjs', file, 'roots.json'], { cwd: place });

  const usdt = proof.assets.indexOf('USDT');
  expect((await run('proof.json')).stdout.split('\n')).toEqual([
    'verified',
    `account ${holder.id}, tree ${newest.id} (the newest published), cut-off ${newest.cutoff}`,
    ...proof.assets.map((asset, at) => `  ${asset} ${at === usdt ? '250.125' : '0'}`),
    '',
  ]);
  await expect(run('decimals.json')).rejects.toMatchObject({
    code: 1,
    stdout: expect.stringContaining('NOT verified (totals)'),
  });
  await expect(run('older.json')).rejects.toMatchObject({
    code: 1,
    stdout: expect.stringContaining('NOT verified (older)'),
  });
}, 180_000);
