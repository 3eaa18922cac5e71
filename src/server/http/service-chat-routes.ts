// Customer service, the customer's entry point (api-contract/service-chat.ts): the caller's own conversation
// only (domain/service-chat.ts).
import { chatHistory, readChat, sendChatMessage } from '../../api-contract/service-chat.ts';
import { customerChat, readCustomerChat, sendCustomerMessage } from '../domain/service-chat.ts';
import type { RouteModule } from './route-module.ts';

export const serviceChatRoutes: RouteModule = ({ route }) => {
  route(chatHistory, (input, { db, caller }) =>
    customerChat(db, caller.userId, input.before === undefined ? undefined : Number(input.before)),
  );
  route(sendChatMessage, (input, { db, caller, clock }) =>
    db.transaction((tx) => sendCustomerMessage(tx, caller.userId, input, clock.now())),
  );
  route(readChat, async (input, { db, caller }) => ({
    unread: await db.transaction((tx) => readCustomerChat(tx, caller.userId, Number(input.up_to))),
  }));
};
