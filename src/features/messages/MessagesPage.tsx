// Station messages (/pages/index/msgList): all or unread, newest first, a page at a time.
// A tap opens the message and marks it read; the nav bar marks every message read.
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { messages, unreadMessages, type StationMessage } from '../../api-contract/messages.ts';
import { errorText } from '../../lib/api.ts';
import { useSubmit } from '../../lib/form.ts';
import { badgeText, refreshUnreadQuietly, unread } from '../../lib/messages.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Segmented } from '../../ui/forms.tsx';
import { ReadAllIcon } from '../../ui/icons.tsx';
import { Empty } from '../../ui/lists.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { useRefreshOnReturn } from '../../lib/on-return.ts';
import { outbox } from '../../lib/outbox.ts';
import {
  chooseFilter,
  closeMessage,
  formatMessageDate,
  hasMore,
  loadMessages,
  markAllRead,
  messagesState,
  openMessage,
  previewOf,
  type MessageFilter,
} from './messages-store.ts';

/** What was marked read offline and waits in the outbox for the connection. */
function OutboxNote() {
  const { pending } = useSnapshot(outbox);
  if (!pending.length) return null;
  const waiting = pending.length;
  return (
    <p className="offline-note" role="status">
      <Plural
        value={waiting}
        one="# change waits to be sent when you are back online."
        other="# changes wait to be sent when you are back online."
      />
    </p>
  );
}

// A failed load shows in the list itself (with a retry), so the promise is not reported again.
const reload = (filter: MessageFilter) => void loadMessages(filter).catch(() => undefined);
/** The shown list's head again: messages that arrived meanwhile show on top. */
const reloadShown = () => reload(messagesState.filter);

export default function MessagesPage() {
  const { t } = useLingui();
  const { filter, opened, all } = useSnapshot(messagesState);
  const { count, loaded } = useSnapshot(unread);
  const readAll = useSubmit(async () => {
    await markAllRead();
    toast(t`All messages are marked as read.`);
  });
  const nothingUnread = loaded && count === 0 && !all.lists.some((message) => message.status === 'unread');

  useEffect(() => {
    reload(messagesState.filter);
    refreshUnreadQuietly();
  }, []);
  useRefreshOnReturn(reloadShown);

  // `?id=`: a push notification's tap opens that message, once, when the list has it.
  const wanted = Number(new URLSearchParams(useSearch()).get('id'));
  const shown = useSnapshot(messagesState)[filter].lists;
  const openedFromLink = useRef(0);
  useEffect(() => {
    const message =
      wanted && openedFromLink.current !== wanted ? shown.find((listed) => listed.id === wanted) : undefined;
    if (!message) return;
    openedFromLink.current = wanted;
    openMessage(message).catch((error) => toast(errorText(error)));
  }, [wanted, shown]);

  return (
    <div className="page msg-page">
      <NavBar
        title={<Trans>Messages</Trans>}
        right={
          <button
            type="button"
            className="icon-button"
            onClick={() => void readAll.submit()}
            disabled={readAll.busy || nothingUnread}
            aria-label={t`Mark all read`}
            title={t`Mark all read`}
          >
            <ReadAllIcon />
          </button>
        }
      />
      <div className="page-body">
        <OfflineNote endpoints={[messages, unreadMessages]} />
        <OutboxNote />
        <Segmented
          value={filter}
          onChange={(next) => void chooseFilter(next).catch(() => undefined)}
          options={[
            { value: 'all', label: <Trans>All</Trans> },
            {
              value: 'unread',
              label: (
                <>
                  <Trans>Unread</Trans>
                  {count > 0 && <span className="msg-count">{badgeText(count)}</span>}
                </>
              ),
            },
          ]}
        />
        <MessageList filter={filter} />
      </div>
      {opened && <MessageReader message={opened} />}
    </div>
  );
}

function MessageList({ filter }: { filter: MessageFilter }) {
  const list = useSnapshot(messagesState)[filter];
  const more = useSubmit(() => loadMessages(filter, { more: true }));
  const retry = (
    <Button size="small" variant="secondary" onClick={() => reload(filter)}>
      <Trans>Try again</Trans>
    </Button>
  );

  if (!list.loaded) return list.failure ? <Empty action={retry}>{list.failure}</Empty> : null;
  if (list.lists.length === 0) {
    return <Empty>{filter === 'unread' ? <Trans>No unread messages</Trans> : <Trans>No messages yet</Trans>}</Empty>;
  }
  return (
    <>
      {list.failure && (
        <p className="msg-failure" role="status">
          <span>{list.failure}</span>
          <button type="button" className="link-button" onClick={() => reload(filter)}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      <ul className="card flush msg-list">
        {list.lists.map((message) => (
          <MessageRow key={message.id} message={message} />
        ))}
      </ul>
      {hasMore(filter, list) && (
        <Button variant="secondary" size="small" onClick={() => void more.submit()} disabled={more.busy}>
          <Trans>Load more</Trans>
        </Button>
      )}
    </>
  );
}

function MessageRow({ message }: { message: Readonly<StationMessage> }) {
  const { t } = useLingui();
  const isUnread = message.status === 'unread';
  const open = () => openMessage(message).catch((error) => toast(errorText(error)));
  return (
    <li>
      <button type="button" className={isUnread ? 'msg-row unread' : 'msg-row'} onClick={() => void open()}>
        <span className="msg-dot" role={isUnread ? 'img' : undefined} aria-label={isUnread ? t`Unread` : undefined} />
        <span className="msg-main">
          <span className="msg-head">
            <bdi className="msg-title">{message.title}</bdi>
            <time className="msg-date" dateTime={message.created_at}>
              {formatMessageDate(message.created_at)}
            </time>
          </span>
          <span className="msg-preview" dir="auto">
            {previewOf(message.content)}
          </span>
        </span>
      </button>
    </li>
  );
}

function MessageReader({ message }: { message: Readonly<StationMessage> }) {
  return (
    <MessageDialog
      message={message}
      actions={
        <Button onClick={closeMessage} dismiss>
          <Trans>Close</Trans>
        </Button>
      }
    />
  );
}
