// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseSync } from 'vite';
import { apiContractAnswersServerOnly } from '../../../src/build/api-contract-answers-server-only.ts';
import { hook } from './helpers.ts';

describe('apiContractAnswersServerOnly (src/build/api-contract-answers-server-only.ts)', () => {
  const transform = hook(apiContractAnswersServerOnly().transform).bind({
    parse: (code: string) => parseSync('x.js', code).program,
  });

  it("calls the answer builders with no argument and drops each endpoint's cache policy, with its comma", () => {
    const code = [
      "export const a = endpoint('GET', '/a', input, returns(shape({ x: string() })), { cache: 'user' });",
      "export const b = endpoint('GET', '/b', input, returns(Paged(Item)), { auth: true, cache: 'public' });",
      "export const c = endpoint('GET', '/c', input, returns(nullableList(Item)), { cache: 'user', auth: true });",
    ].join('\n');
    expect(transform(code, '/app/src/api-contract/a.ts').code).toBe(
      [
        "export const a = endpoint('GET', '/a', input, returns());",
        // A property among others goes with the comma after it (a trailing comma stays: still valid, the minifier drops
        // it).
        "export const b = endpoint('GET', '/b', input, returns(), { auth: true,  });",
        "export const c = endpoint('GET', '/c', input, returns(), {  auth: true });",
      ].join('\n'),
    );
  });

  it('leaves files outside the API contract, and contract files without answers, alone', () => {
    expect(transform('returns(shape(x));', '/app/src/lib/a.ts')).toBeNull();
    expect(transform('export const a = 1;', '/app/src/api-contract/a.ts')).toBeNull();
  });
});
