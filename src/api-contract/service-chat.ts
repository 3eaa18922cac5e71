// Customer service: the customer's conversation with the service team, in the app's
// service page. One conversation per customer, made by their first message; the customer writes text
// and pictures, operators answer with text (api-contract/console-service.ts). Every call is the caller's
// own conversation only. A message sent offline waits in the app's outbox and is sent once, with the
// Idempotency-Key it was given when written (lib/outbox.ts).
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { get, post, returns } from './endpoint.ts';
import { UPLOAD_URL } from './fields.ts';
import { texts } from './texts.ts';
import { maxCharacters, visibleText } from './visible-text.ts';
import { isoTime, shape, whole } from './answers.ts';

export const CHAT_MESSAGE_MAX = 2000;
export const CHAT_PAGE_SIZE = 50;
/** Pictures a customer may send in a day (UTC): each is kept as long as the conversation. */
export const CHAT_PICTURES_PER_DAY = 20;
export const CHAT_AUTHORS = ['customer', 'operator'] as const;

/** The chat's own texts: the server answers with them and the chat page shows them; no start chunk carries them. */
export const chatTexts = {
  chatEmpty: /*i18n*/ { id: 'v.chatEmpty', message: 'Please write a message or choose a picture!' },
  chatTooLong: /*i18n*/ { id: 'v.chatTooLong', message: 'The message is too long (at most 2,000 characters)!' },
  chatPicturesLimit: /*i18n*/ {
    id: 'e.chatPicturesLimit',
    message: 'You have sent {0} pictures today: please describe the rest in words or try again tomorrow!',
  },
  chatPictureNotYours: /*i18n*/ {
    id: 'e.chatPictureNotYours',
    message: 'This picture cannot be sent: please choose it again!',
  },
} as const satisfies Record<string, MessageDescriptor>;

const messageId = v.pipe(v.string(texts.invalidRequest.id), v.regex(/^\d{1,9}$/, texts.invalidRequest.id));

export const ChatMessage = shape({
  id: whole,
  author: v.picklist(CHAT_AUTHORS),
  body: v.string(),
  /** The customer's picture (an upload URL, shown to them and the service team only), or null. */
  picture: v.nullable(v.string()),
  created_at: isoTime,
});
export type ChatMessage = v.InferOutput<typeof ChatMessage>;

/**
 * The conversation, newest last: the latest CHAT_PAGE_SIZE messages, or those before `before` (an
 * id) for older ones; `more` says older ones exist. `unread` counts the team's answers not seen yet
 * (opening the chat does not mark them: readChat does). Kept offline like the user's other reads.
 */
export const chatHistory = get(
  '/service/chat',
  v.object({ before: v.optional(messageId) }),
  returns(shape({ messages: v.array(ChatMessage), more: v.boolean(), unread: whole })),
  {
    cache: 'user',
  },
);

/** A message's text: lines of visible text (visible-text.ts), at most CHAT_MESSAGE_MAX characters; '' with a
 * picture alone. */
export const chatBody = v.pipe(
  v.string(texts.invalidRequest.id),
  visibleText(null, { lines: true }),
  maxCharacters(CHAT_MESSAGE_MAX, chatTexts.chatTooLong.id),
);

/** A message: text, a picture the caller uploaded (/users/upload), or both. */
export const sendChatMessage = post(
  '/service/chat/send',
  v.pipe(
    v.object({
      body: v.optional(chatBody, ''),
      picture: v.optional(
        v.pipe(
          v.string(texts.invalidRequest.id),
          v.regex(new RegExp(`(${UPLOAD_URL.source})|^$`), chatTexts.chatPictureNotYours.id),
        ),
        '',
      ),
    }),
    v.check((input) => input.body !== '' || input.picture !== '', chatTexts.chatEmpty.id),
  ),
  returns(ChatMessage),
);

/** The team's answers up to `up_to` (a message id) are seen; answers how many are still unread. */
export const readChat = post('/service/chat/read', v.object({ up_to: messageId }), returns(shape({ unread: whole })));
