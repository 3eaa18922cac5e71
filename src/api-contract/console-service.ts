// The console's customer service inbox: reviewers read the customers'
// conversations, take one or give it to another reviewer, answer it (a canned reply or their own words)
// and close it. Answers reach the customer in the app's chat and as a push notification where they
// subscribed. Internal notes and "who is answering" are the team's alone: no customer call carries them.
// Every call is the reviewer role's and leaves an audit entry when it changes what a customer or the
// inbox sees (a note is its own record: author and time, never edited); none touches a balance, an order
// or a price.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { consoleTexts } from './console-texts.ts';
import { decimal, isoTime, nothing, shape, whole } from './answers.ts';
import { CHAT_AUTHORS, CHAT_MESSAGE_MAX } from './service-chat.ts';
import { OPERATOR_NAME } from './console.ts';
import { maxCharacters, visibleText } from './visible-text.ts';

export const INBOX_VIEWS = ['waiting', 'mine', 'unassigned', 'open', 'closed'] as const;
/** How long an operator counts as answering after their console last said they were typing. */
export const ANSWERING_SECONDS = 15;
/** The most characters of a canned reply's title, as a reader counts them (visible-text.ts `characterCount`). */
export const CANNED_TITLE_MAX = 60;

const access = { console: 'reviewer' } as const;
const recordId = v.pipe(
  v.string(consoleTexts.consoleRecordNotFound.id),
  v.regex(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound.id),
);
// What the customer reads in their chat follows the chat's own rule (visible-text.ts).
const answer = v.pipe(
  visibleText(consoleTexts.consoleEnterReply, { lines: true }),
  v.nonEmpty(consoleTexts.consoleEnterReply.id),
  maxCharacters(CHAT_MESSAGE_MAX, consoleTexts.consoleReplyTooLong.id),
);
// The team's own texts (a note, a canned reply's title) are read by the next reviewer as they are held: the same rule.
const note = v.pipe(
  visibleText(consoleTexts.consoleEnterNote, { lines: true }),
  v.nonEmpty(consoleTexts.consoleEnterNote.id),
  maxCharacters(CHAT_MESSAGE_MAX, consoleTexts.consoleNoteTooLong.id),
);

export const ConsoleConversation = shape({
  id: whole,
  user_id: whole,
  username: v.string(),
  status: v.picklist(['open', 'closed']),
  /** The operator who answers it, or null while nobody has taken it. */
  assigned_to: v.nullable(v.string()),
  /** The customer's last message has no answer yet. */
  waiting: v.boolean(),
  /** The last message's first words ("[picture]" for a picture alone). */
  last_message: v.string(),
  last_message_at: isoTime,
});
export type ConsoleConversation = v.InferOutput<typeof ConsoleConversation>;

export const ConsoleChatMessage = shape({
  id: whole,
  author: v.picklist(CHAT_AUTHORS),
  /** The operator who wrote it; null for the customer's. */
  operator: v.nullable(v.string()),
  body: v.string(),
  /** The customer's picture: its upload id (GET /api/uploads/<id> with the console token), or null. */
  picture: v.nullable(v.string()),
  created_at: isoTime,
});
export type ConsoleChatMessage = v.InferOutput<typeof ConsoleChatMessage>;

/** An internal note: the team's words about the conversation, shown among the messages at its time. */
export const ConsoleServiceNote = shape({
  id: whole,
  operator: v.string(),
  body: v.string(),
  created_at: isoTime,
});
export type ConsoleServiceNote = v.InferOutput<typeof ConsoleServiceNote>;

/** A withdrawal of the customer's still in review, shown beside the chat. */
export const OpenWithdrawal = shape({
  id: whole,
  order_no: v.string(),
  amount: decimal,
  asset: v.string(),
  created_at: isoTime,
});
export type OpenWithdrawal = v.InferOutput<typeof OpenWithdrawal>;

/**
 * The inbox, latest first (at most 100): 'waiting' (open, the customer waits for an answer, oldest
 * wait first), 'mine' (open, taken by the caller), 'unassigned' (open, nobody's), 'open', 'closed'.
 */
export const consoleConversations = get(
  '/console/service/conversations',
  v.object({ view: v.optional(v.picklist(INBOX_VIEWS, texts.invalidRequest.id), 'waiting') }),
  returns(v.array(ConsoleConversation)),
  access,
);

/**
 * One conversation with its messages (the latest 200) and the team's notes among them, for reading
 * only; who else is answering it now (not the caller); the customer's withdrawals still in review.
 */
export const consoleConversation = get(
  '/console/service/conversation',
  v.object({ id: recordId }),
  returns(
    shape({
      conversation: ConsoleConversation,
      messages: v.array(ConsoleChatMessage),
      notes: v.array(ConsoleServiceNote),
      answering: v.array(v.string()),
      open_withdrawals: v.array(OpenWithdrawal),
    }),
  ),
  access,
);

/** The operators a conversation can be given to: the active reviewers, by name. */
export const consoleServiceOperators = get('/console/service/operators', NoInput, returns(v.array(v.string())), access);

/** Takes the conversation (or hands it to another reviewer, by name). */
export const consoleAssignConversation = post(
  '/console/service/assign',
  v.object({
    id: recordId,
    operator: v.optional(
      v.pipe(
        v.string(texts.invalidRequest.id),
        v.regex(new RegExp(`${OPERATOR_NAME.source}|^$`), consoleTexts.consoleOperatorNameFormat.id),
      ),
      '',
    ),
  }),
  returns(ConsoleConversation),
  access,
);

/** An answer: the customer reads it in the app; a conversation nobody had taken becomes the caller's; a closed one
 * opens. */
export const consoleReplyConversation = post(
  '/console/service/reply',
  v.object({ id: recordId, body: answer }),
  returns(ConsoleChatMessage),
  access,
);

/** Nobody's again: it shows under Unassigned. */
export const consoleUnassignConversation = post(
  '/console/service/unassign',
  v.object({ id: recordId }),
  returns(ConsoleConversation),
  access,
);

/** An internal note for the team: never shown to the customer, never sent to them. */
export const consoleAddServiceNote = post(
  '/console/service/note',
  v.object({ id: recordId, body: note }),
  returns(ConsoleServiceNote),
  access,
);

/**
 * The caller is writing an answer to it: the others viewing it are told for ANSWERING_SECONDS, and
 * asked to confirm before they send one too. The console says it again while the operator types, and
 * `typing=false` when the operator empties the box (sending the answer ends it too).
 */
export const consoleAnswering = post(
  '/console/service/answering',
  v.object({
    id: recordId,
    typing: v.optional(v.picklist(['true', 'false'], texts.invalidRequest.id), 'true'),
  }),
  returns(nothing),
  access,
);

/** Closes it: out of the open views until the customer writes again. */
export const consoleCloseConversation = post(
  '/console/service/close',
  v.object({ id: recordId }),
  returns(ConsoleConversation),
  access,
);

export const CannedReply = shape({ id: whole, title: v.string(), body: v.string() });
export type CannedReply = v.InferOutput<typeof CannedReply>;

export const consoleCannedReplies = get('/console/service/canned', NoInput, returns(v.array(CannedReply)), access);
export const consoleAddCannedReply = post(
  '/console/service/canned/add',
  v.object({
    title: v.pipe(
      visibleText(consoleTexts.consoleEnterTitle),
      v.nonEmpty(consoleTexts.consoleEnterTitle.id),
      maxCharacters(CANNED_TITLE_MAX, consoleTexts.consoleTitleTooLong.id),
    ),
    body: answer,
  }),
  returns(CannedReply),
  access,
);
export const consoleRemoveCannedReply = post(
  '/console/service/canned/remove',
  v.object({ id: recordId }),
  returns(CannedReply),
  access,
);
