// Station messages: list, unread count with the oldest unread, mark read — the caller's only,
// each in the request's language where the operator wrote that version, else in English.
import { messages, readMessages, unreadMessages } from '../../api-contract/messages.ts';
import { listMessages, markRead, parseMessageIds, unreadSummary } from '../domain/messages.ts';
import { chatUnread } from '../domain/service-chat.ts';
import type { RouteModule } from './route-module.ts';

export const messagesRoutes: RouteModule = ({ route }) => {
  route(messages, (input, { db, caller, locale }) =>
    listMessages(db, caller.userId, input.status, { cursor: input.cursor, page: Number(input.page) }, locale),
  );

  // The unread summary carries the service chat's answers not seen beside the station messages: two read models, put
  // together here so that neither domain module imports the other.
  route(unreadMessages, async (_input, { db, caller, locale }) => {
    const [summary, service] = await Promise.all([
      unreadSummary(db, caller.userId, locale),
      chatUnread(db, caller.userId),
    ]);
    return { ...summary, service };
  });

  route(readMessages, async (input, { db, caller, clock }) => ({
    unread: await markRead(db, caller.userId, parseMessageIds(input.ids), clock.now()),
  }));
};
