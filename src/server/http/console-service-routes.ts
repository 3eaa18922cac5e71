// The console's customer service inbox (api-contract/console-service.ts): thin, like every entry point; each
// change runs in one transaction with its audit entry (domain/service-chat.ts).
import * as c from '../../api-contract/console-service.ts';
import * as chat from '../domain/service-chat.ts';
import { actorOf } from '../domain/operators.ts';
import { openWithdrawals } from '../domain/withdraw.ts';
import type { HandlerContext } from './context.ts';
import type { RouteModule } from './route-module.ts';

const actor = ({ operator, ip }: HandlerContext) => ({ ...actorOf(operator, ip), operatorId: operator.id });

export const consoleServiceRoutes: RouteModule = ({ route }) => {
  route(c.consoleConversations, (input, { db, operator }) => chat.inbox(db, input.view, operator.id));
  // Beside the conversation, the customer's withdrawals in review: the withdrawal rules' own list, added here so that
  // the chat's rules import no withdrawal rule.
  route(c.consoleConversation, async (input, { db, operator, clock }) => {
    const detail = await chat.conversationDetail(db, Number(input.id), operator.id, clock.now());
    return { ...detail, open_withdrawals: await openWithdrawals(db, detail.conversation.user_id) };
  });
  route(c.consoleServiceOperators, (_input, { db }) => chat.serviceOperators(db));
  route(c.consoleAssignConversation, (input, ctx) =>
    ctx.db.transaction((tx) =>
      chat.assignConversation(tx, actor(ctx), Number(input.id), input.operator, ctx.clock.now()),
    ),
  );
  route(c.consoleUnassignConversation, (input, ctx) =>
    ctx.db.transaction((tx) => chat.assignConversation(tx, actor(ctx), Number(input.id), null, ctx.clock.now())),
  );
  route(c.consoleAddServiceNote, (input, ctx) =>
    ctx.db.transaction((tx) => chat.addServiceNote(tx, ctx.operator.id, Number(input.id), input.body, ctx.clock.now())),
  );
  route(c.consoleAnswering, (input, ctx) =>
    ctx.db.transaction((tx) =>
      chat.renewAnswering(tx, ctx.operator.id, Number(input.id), input.typing === 'true', ctx.clock.now()),
    ),
  );
  route(c.consoleReplyConversation, (input, ctx) =>
    ctx.db.transaction((tx) => chat.replyToConversation(tx, actor(ctx), Number(input.id), input.body, ctx.clock.now())),
  );
  route(c.consoleCloseConversation, (input, ctx) =>
    ctx.db.transaction((tx) => chat.closeConversation(tx, actor(ctx), Number(input.id), ctx.clock.now())),
  );
  route(c.consoleCannedReplies, (_input, { db }) => chat.cannedReplies(db));
  route(c.consoleAddCannedReply, (input, ctx) =>
    ctx.db.transaction((tx) => chat.addCannedReply(tx, actor(ctx), input, ctx.clock.now())),
  );
  route(c.consoleRemoveCannedReply, (input, ctx) =>
    ctx.db.transaction((tx) => chat.removeCannedReply(tx, actor(ctx), Number(input.id), ctx.clock.now())),
  );
};
