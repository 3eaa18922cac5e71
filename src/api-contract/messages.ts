// Station messages: the caller's notices, read and unread.
import * as v from 'valibot';
import { post, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { texts } from './texts.ts';
import { CursorPaged } from './envelope.ts';
import { shape, whole } from './answers.ts';
import { StationMessage } from './unread.ts';

export { MESSAGE_STATUSES, StationMessage, type MessageStatus } from './unread.ts';

export const MESSAGE_PAGE_SIZE = 20;
export const MESSAGE_FILTERS = ['all', 'unread'] as const;

/**
 * POST with status (all or unread) and page; newest first. The app pages by `cursor` (a previous answer's `next`);
 * `page`, the number the spec names, still skips whole pages for a client that sends it without a cursor.
 */
export const messages = post(
  '/users/message',
  v.object({
    status: v.optional(v.picklist(MESSAGE_FILTERS, texts.invalidRequest.id), 'all'),
    page: v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1'),
    cursor,
  }),
  returns(CursorPaged(StationMessage)),
  { cache: 'user', readOnly: true },
);

export { unreadMessages } from './unread.ts';

/** Marks the caller's messages read: ids as "1,2,3", or "all". */
export const readMessages = post(
  '/users/message/reader',
  v.object({ ids: matching(/^(all|\d{1,9}(,\d{1,9}){0,199})$/, texts.invalidRequest) }),
  returns(shape({ unread: whole })),
);
