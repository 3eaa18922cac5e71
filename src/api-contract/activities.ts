// Activities and the win notice (/content/sale, /content/sale/info, /content/winnotice): public
// reading. An activity's body is rich text kept sanitised (rich-text.ts) when saved and when served.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { Paged } from './envelope.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';

export const ACTIVITY_STATUSES = ['upcoming', 'running', 'ended'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const ActivitySummary = shape({
  id: whole,
  title: v.string(),
  cover: v.string(),
  starts_at: isoTime,
  /** null: open-ended. */
  ends_at: v.nullable(isoTime),
  status: v.picklist(ACTIVITY_STATUSES),
});
export type ActivitySummary = v.InferOutput<typeof ActivitySummary>;

export const ActivityDetails = shape({
  ...ActivitySummary.entries,
  /** Sanitised rich text (the allowlist of rich-text.ts). */
  body: v.string(),
});
export type ActivityDetails = v.InferOutput<typeof ActivityDetails>;

/** Where an activity stands at `now`: before its start, within its period, or after its end. */
export function activityStatus(startsAt: Date, endsAt: Date | null, now: Date): ActivityStatus {
  if (now < startsAt) return 'upcoming';
  return endsAt && now >= endsAt ? 'ended' : 'running';
}

export const activityList = get('/content/sale', NoInput, returns(Paged(ActivitySummary)), {
  cache: 'public',
  auth: false,
});
export const activityInfo = get(
  '/content/sale/info',
  v.object({ id: matching(/^[1-9]\d{0,8}$/, texts.activityNotFound) }),
  returns(ActivityDetails),
  {
    cache: 'public',
    auth: false,
  },
);

export const WinLine = shape({
  id: whole,
  /** Masked: "de***o". */
  username: v.string(),
  prize_name: v.string(),
  asset: v.string(),
  amount: decimal,
  created_at: isoTime,
});
export type WinLine = v.InferOutput<typeof WinLine>;
/** How many recent wins the notice shows. */
export const WIN_NOTICE_SIZE = 20;
export const winNotice = get('/content/winnotice', NoInput, returns(Paged(WinLine)), { cache: 'public', auth: false });

/** "demo" → "de***o", "ab" → "a***": enough to recognise oneself, never enough to identify another. */
export function maskUsername(username: string): string {
  const chars = [...username];
  if (chars.length <= 2) return `${chars[0] ?? ''}***`;
  if (chars.length <= 4) return `${chars[0]}***${chars[chars.length - 1]}`;
  return `${chars.slice(0, 2).join('')}***${chars[chars.length - 1]}`;
}
