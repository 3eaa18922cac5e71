// The data export's README as a customer reads it: asked in Thai, it is in Thai, says that every time is in UTC, and
// names every file of the archive and every column of every CSV file with what that column holds, in Thai. The CSV
// files keep their column names (what a program reading them expects); the README is where a person reads them.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXPORT_PATH } from '../../src/api-contract/closure.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { EXPORT_PARTS } from '../../src/server/domain/data-export.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { uploadedPicture } from './funds-helpers.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()), 240_000);
afterAll(() => h.close());

const THAI = /[\u0E00-\u0E7F]/;

it('asked in Thai, the README is Thai and names every file and every column with what it holds', async () => {
  const user = await customer(h, '100');
  const image = await uploadedPicture(h, user.token);
  const certified = await h.call(
    submitCertification,
    { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
    { token: user.token },
  );
  expect(certified.ret).toBe(1);

  const response = await h.app.inject({ url: EXPORT_PATH, headers: { lang: 'th', token: user.token } });
  expect(response.statusCode).toBe(200);
  const files = unzipSync(new Uint8Array(response.rawPayload));
  const readme = strFromU8(files['README.txt']!);
  const lines = readme.split('\r\n');
  expect(lines[0]).toMatch(/^ข้อมูลบัญชีของคุณ ส่งออกเมื่อ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)$/);
  expect(readme).toContain('เวลาทั้งหมดในไฟล์เหล่านี้เป็นเวลา UTC');
  expect(readme).toContain('ไม่รวมรูปภาพเอกสาร');

  const parts = Object.keys(files).filter((name) => name !== 'README.txt');
  expect(parts.length).toBe(EXPORT_PARTS.length * 2);
  for (const name of parts) {
    // Each part's line names both its files, then says in Thai what the part holds.
    const part = name.replace(/\.(csv|json)$/, '');
    const line = lines.find((text) => text.startsWith(`${part}.csv, ${part}.json: `));
    expect(line, name).toMatch(THAI);
  }
  for (const name of parts.filter((file) => file.endsWith('.csv'))) {
    const part = name.slice(0, -'.csv'.length);
    // The header: the first line after the BOM, every name quoted.
    const header = strFromU8(files[name]!)
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!;
    const columns = [...header.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
    expect(columns.length, name).toBeGreaterThan(0);
    const block = lines.slice(lines.indexOf(lines.find((text) => text.startsWith(`${part}.csv, `))!) + 1);
    const described = block.slice(0, block.indexOf(''));
    expect(described.map((text) => text.trim().split(':')[0])).toEqual(columns);
    for (const text of described) expect(text, `${part}: ${text}`).toMatch(new RegExp(`^  [a-z_]+: .*${THAI.source}`));
  }
});
