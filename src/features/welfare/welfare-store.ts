// Welfare: the reward tasks with the caller's progress, one task for its details page, and
// claiming — the server checks the condition and pays once; the app only shows what it answers.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import {
  claimWelfare,
  welfareTask,
  welfareTasks,
  type WelfareClaim,
  type WelfareCode,
  type WelfareTask,
} from '../../api-contract/welfare.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { session } from '../../lib/session.ts';

export const welfareState = proxy({
  tasks: [] as WelfareTask[],
  loaded: false,
  failure: null as string | null,
  /** The task of the details page, by code. */
  details: null as WelfareTask | null,
  detailsFailure: null as string | null,
});

let latestList = 0;
let latestDetails = 0;

export async function loadWelfare(): Promise<void> {
  const request = ++latestList;
  try {
    const { lists } = await api(welfareTasks, undefined, { loading: !welfareState.loaded });
    if (request !== latestList) return;
    Object.assign(welfareState, { tasks: lists, loaded: true, failure: null });
  } catch (error) {
    if (request !== latestList) return;
    welfareState.failure = errorText(error);
    throw error;
  }
}

export async function loadWelfareTask(code: WelfareCode): Promise<void> {
  const request = ++latestDetails;
  if (welfareState.details?.code !== code)
    Object.assign(welfareState, { details: welfareState.tasks.find((task) => task.code === code) ?? null });
  try {
    const task = await api(welfareTask, { code }, { loading: !welfareState.details });
    if (request !== latestDetails) return;
    Object.assign(welfareState, { details: task, detailsFailure: null });
  } catch (error) {
    if (request !== latestDetails) return;
    welfareState.detailsFailure = errorText(error);
    throw error;
  }
}

/** Claims a task's reward (fails at once offline); the lists and balances are brought up to date. */
export async function claimReward(code: WelfareCode): Promise<WelfareClaim> {
  try {
    const answer = await api(claimWelfare, { code });
    const claimed = (task: WelfareTask): WelfareTask =>
      task.code === code
        ? { ...task, state: 'claimed', progress: task.target, claimed_at: new Date().toISOString() }
        : task;
    welfareState.tasks = welfareState.tasks.map(claimed);
    if (welfareState.details) welfareState.details = claimed(welfareState.details);
    void refreshBalances().catch(() => undefined);
    return answer;
  } finally {
    // Refused (claimed elsewhere, condition not met): show the server's state.
    void loadWelfare().catch(() => undefined);
    if (welfareState.details?.code === code) void loadWelfareTask(code).catch(() => undefined);
  }
}

export interface WelfareCopy {
  title: MessageDescriptor;
  /** What to do for it, one sentence. */
  how: MessageDescriptor;
  /** Where the condition is met. */
  go: string;
  goLabel: MessageDescriptor;
}

/** Each task in the user's words, and the page where its condition is met. */
export const WELFARE_COPY: Record<WelfareCode, WelfareCopy> = {
  primary_certification: {
    title: msg`Complete primary certification`,
    how: msg`Submit your identity document for the primary certification. The reward can be claimed once it is verified.`,
    go: ROUTES.certificationPrimary,
    goLabel: msg`Certify`,
  },
  first_recharge: {
    title: msg`Make your first recharge`,
    how: msg`Recharge any amount. The reward can be claimed once the recharge is credited to your account.`,
    go: ROUTES.recharge,
    goLabel: msg`Recharge`,
  },
  first_option: {
    title: msg`Place your first option`,
    how: msg`Place an option order of any amount on any coin. The reward can be claimed right after.`,
    go: ROUTES.option,
    goLabel: msg`Trade`,
  },
  friend_certified: {
    title: msg`Invite a friend who certifies`,
    how: msg`Share your invitation link. When a friend registers with your code and their primary certification is verified, the reward is yours.`,
    go: ROUTES.share,
    goLabel: msg`Invite`,
  },
};

/** The copy of a task this version knows, else null (a newer server's task is not shown). */
export const copyOf = (code: string): WelfareCopy | null =>
  Object.hasOwn(WELFARE_COPY, code) ? WELFARE_COPY[code as WelfareCode] : null;

// Another session (logout, another user) must never see this one's tasks.
subscribeKey(session, 'token', () => {
  latestList += 1;
  latestDetails += 1;
  Object.assign(welfareState, { tasks: [], loaded: false, failure: null, details: null, detailsFailure: null });
});
