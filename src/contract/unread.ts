// §7: how many messages are unread, and the oldest unread one (the startup dialog shows it, §1).
// A module of its own: the app asks for it at start, and the rest of the messages contract (its
// schemas) stays out of the first download. contract/messages.ts re-exports it.
import { NoInput, get, result } from './endpoint.ts';
import type { StationMessage } from './messages.ts';

export const unreadMessages = get('/users/message/unread', NoInput, result<{ count: number; first: StationMessage | null }>());
