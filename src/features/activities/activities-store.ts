// Activities (/content/sale, /content/sale/info) and the recent blind-box wins
// (/content/winnotice): public reading, kept per activity once seen.
import { proxy } from 'valtio/vanilla';
import {
  activityInfo,
  activityList,
  winNotice,
  type ActivityDetails,
  type ActivitySummary,
  type WinLine,
} from '../../api-contract/activities.ts';
import { api, errorText } from '../../lib/api.ts';
import { formatDateWith } from '../../lib/format.ts';

export const activitiesState = proxy({
  list: [] as ActivitySummary[],
  loaded: false,
  failure: null as string | null,
  /** Activities opened on this device, by id: shown at once, then asked again. */
  details: {} as Record<number, ActivityDetails>,
  wins: [] as WinLine[],
});

export async function loadActivities(): Promise<void> {
  try {
    activitiesState.list = (await api(activityList, undefined, { loading: !activitiesState.loaded })).lists;
    activitiesState.loaded = true;
    activitiesState.failure = null;
  } catch (error) {
    activitiesState.failure = errorText(error);
    throw error;
  }
}

export async function loadActivity(id: number): Promise<void> {
  activitiesState.details[id] = await api(activityInfo, { id: String(id) }, { loading: !activitiesState.details[id] });
}

export async function loadWins(): Promise<void> {
  activitiesState.wins = (await api(winNotice, undefined, { loading: false })).lists;
}

/** `?id=12` → 12; null for anything else. */
export function idFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('id') ?? '';
  return /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null;
}

const PERIOD_DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
/** A day of an activity's period in the app's language: "23 Nov 2026". */
export const formatDay = (iso: string) => formatDateWith(PERIOD_DAY, new Date(iso));
