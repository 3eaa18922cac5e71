// Station messages (§7): list, unread count with the oldest unread, mark read — the caller's only,
// each in the request's language where the operator wrote that version, else in English.
import { messages, readMessages, unreadMessages } from '../../contract/messages.ts';
import { listMessages, markRead, parseMessageIds, unreadSummary } from '../domain/messages.ts';
import type { RouteModule } from './route-module.ts';

export const messagesRoutes: RouteModule = ({ route }) => {
  route(messages, (input, { db, caller, locale }) =>
    listMessages(db, caller.userId, input.status, { cursor: input.cursor, page: Number(input.page) }, locale),
  );

  route(unreadMessages, (_input, { db, caller, locale }) => unreadSummary(db, caller.userId, locale));

  route(readMessages, async (input, { db, caller, clock }) => ({
    unread: await markRead(db, caller.userId, parseMessageIds(input.ids), clock.now()),
  }));
};
