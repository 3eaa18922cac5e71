// How many messages are unread, and the oldest unread one (the startup dialog shows it).
// A module of its own: the app asks for it at start, and the rest of the messages contract (its
// schemas) stays out of the first download. api-contract/messages.ts re-exports it.
// The message's shape lives here too (messages.ts re-exports it), so this module imports nothing
// of the messages contract.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { isoTime, shape, whole } from './answers.ts';

export const MESSAGE_STATUSES = ['read', 'unread'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const StationMessage = shape({
  id: whole,
  title: v.string(),
  content: v.string(),
  status: v.picklist(MESSAGE_STATUSES),
  created_at: isoTime,
});
export type StationMessage = v.InferOutput<typeof StationMessage>;

/** `service`: customer service's answers not seen yet (the chat's own count, beside the messages'). */
export const unreadMessages = get(
  '/users/message/unread',
  NoInput,
  returns(shape({ count: whole, first: v.nullable(StationMessage), service: whole })),
  { cache: 'user' },
);
