// Roles on every console call, table-driven over the console's API contract as declared (an
// endpoint added to api-contract/console*.ts later is in the table without a line added here): no
// session and a customer's token are no session; an operator passes only where the endpoint names
// their role; one who has not changed the first password passes only the calls meant for that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, refused } from './helpers.ts';
import { enrolled, operatorToken, signInAs } from './console-helpers.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/api-contract/console.ts';
import type { DeclaredEndpoint } from '../../src/api-contract/registry.ts';

const ROLE_REFUSED = refused('Your role does not allow this!');
const CHANGE_FIRST = refused('Please change your first password before anything else!');

/** A valid input for each console call that takes one (ids of nothing: a write finds no record to change). */
const INPUTS: Record<string, Record<string, string>> = {
  consoleChangePassword: { password: 'not the current one', new_password: 'another long passphrase' },
  consoleRecharge: { id: '999999' },
  consoleApproveRecharge: { id: '999999' },
  consoleRejectRecharge: { id: '999999', reason: 'No transfer arrived' },
  consoleWithdrawal: { id: '999999' },
  consoleApproveWithdrawal: { id: '999999' },
  consoleRejectWithdrawal: { id: '999999', reason: 'Payee name differs' },
  consoleCertification: { id: '999999' },
  consoleApproveCertification: { id: '999999' },
  consoleRejectCertification: { id: '999999', reason: 'Picture unreadable' },
  consoleFindCustomers: { query: '08' },
  consoleCustomer: { id: '999999' },
  consoleCustomerHistory: { id: '999999' },
  consoleAddOperator: { name: 'newcomer', role: 'content' },
  consoleDisableOperator: { name: 'nobody' },
  consoleContentItems: { kind: 'slide' },
  consoleContentVersions: { kind: 'slide', id: '999999' },
  consoleSaveContentVersion: { kind: 'slide', id: '999999', lang: 'ar', title: 'عنوان' },
  consoleChangeOptionProduct: { id: '999999', yield: '0.8' },
  consoleChangeContractPair: { coin: 'XYZ', fee: '0.002' },
  consoleConversation: { id: '999999' },
  consoleAssignConversation: { id: '999999' },
  consoleReplyConversation: { id: '999999', body: 'Hello' },
  consoleCloseConversation: { id: '999999' },
  consoleAddCannedReply: { title: 'Greeting', body: 'Hello, how can we help?' },
  consoleRemoveCannedReply: { id: '999999' },
  consoleSetCheckInLadder: { ladder: '5,5,10,10,15,20,30' },
  consoleChangeWelfareTask: { code: 'first_option', reward: '30' },
  consolePublishPrizeTable: { table: 'Half:USDT:1:500000' },
  consoleRestockPrize: { id: '999999', stock: '1' },
  consoleSetDrawCost: { points: '100' },
  consoleSetReferralReward: { amount: '1' },
};

let h: Harness;
let calls: DeclaredEndpoint[];
let customerToken: string;
const tokens = {} as Record<OperatorRole, string>;
let firstPasswordToken: string;

beforeAll(async () => {
  h = await startHarness();
  // api-contract/console.ts and the console's other modules (console-content.ts…).
  calls = (await declaredEndpoints()).filter((call) => call.module.startsWith('console'));
  customerToken = (await customer(h)).token;
  for (const role of OPERATOR_ROLES) tokens[role] = await operatorToken(h, `${role}-one`, role);
  firstPasswordToken = (await signInAs(h, await enrolled(h, 'fresh', 'reviewer'))).data.token;
});
afterAll(() => h.close());

const call = (declared: DeclaredEndpoint, token?: string) =>
  h.call(declared.endpoint, INPUTS[declared.name] ?? {}, { token });
/** Got past the access checks: neither "no session" nor a role or first-password refusal (the call's own answer may
 * still refuse). */
const passed = (answer: { ret: number; msg: string }) =>
  answer.ret !== -1 && answer.msg !== ROLE_REFUSED.msg && answer.msg !== CHANGE_FIRST.msg;

describe('every console call', () => {
  it('is declared in api-contract/console*.ts under /console/ and names who may call it (only the sign-in needs no session)', () => {
    expect(calls.length).toBeGreaterThan(20);
    for (const { name, endpoint } of calls) {
      expect(endpoint.path, name).toMatch(/^\/console\//);
      if (name === 'consoleSignIn') expect(endpoint.auth).toBe(false);
      else
        expect([endpoint.auth, endpoint.console], name).toEqual([
          true,
          expect.stringMatching(/^(operator|reviewer|content|admin)$/),
        ]);
    }
  });

  it('answers "no session" without a token and with a customer’s token', async () => {
    for (const declared of calls.filter((c) => c.endpoint.auth)) {
      expect(await call(declared), declared.name).toEqual(TOKEN_EXPIRED);
      expect(await call(declared, customerToken), declared.name).toEqual(TOKEN_EXPIRED);
    }
  });

  it('lets each role through only where the call names it', async () => {
    // Sign-out last: it ends the session it is called with.
    const ordered = [
      ...calls.filter((c) => c.endpoint.auth && c.name !== 'consoleSignOut'),
      ...calls.filter((c) => c.name === 'consoleSignOut'),
    ];
    const outcome: Record<string, Record<string, boolean>> = {};
    const expected: Record<string, Record<string, boolean>> = {};
    for (const declared of ordered) {
      for (const role of OPERATOR_ROLES) {
        const answer = await call(declared, tokens[role]);
        if (!passed(answer)) expect(answer, `${declared.name} as ${role}`).toEqual(ROLE_REFUSED);
        (outcome[declared.name] ??= {})[role] = passed(answer);
        (expected[declared.name] ??= {})[role] =
          declared.endpoint.console === 'operator' || declared.endpoint.console === role;
      }
    }
    expect(outcome).toEqual(expected);
    // Something of each role's work is in the table.
    for (const role of OPERATOR_ROLES.filter((r) => r !== 'content'))
      expect(Object.values(expected).some((roles) => roles[role] && !roles.content)).toBe(true);
  });

  it('refuses every role’s call to an operator who has not changed the first password, and lets through what that needs', async () => {
    for (const declared of calls.filter((c) => c.endpoint.auth && c.name !== 'consoleSignOut')) {
      const answer = await call(declared, firstPasswordToken);
      if (declared.endpoint.console === 'operator') expect(passed(answer), declared.name).toBe(true);
      else expect(answer, declared.name).toEqual(CHANGE_FIRST);
    }
  });
});
