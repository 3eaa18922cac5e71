// The customer service inbox: the conversations of a view (waiting for an answer,
// the caller's, nobody's, every open one, the closed ones), each with the reviewer it is assigned to,
// refreshed like the queues, beside the chosen one (InboxConversation.tsx). On a tablet the two panes
// fold: the list, or the conversation.
import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleConversations, INBOX_VIEWS, type ConsoleConversation } from '../api-contract/console-service.ts';
import { consoleQueues } from '../api-contract/console.ts';
import { consoleApi, messageOf } from './api.ts';
import { inboxCount } from './inbox-count.ts';
import { ErrorLine, QUEUES_POLL_MS, ShortTime, usePolling } from './parts.tsx';
import { InboxConversation } from './InboxConversation.tsx';

type View = (typeof INBOX_VIEWS)[number];
const VIEW_KEY = 'coinvest.console.inbox-view';
/** What the server writes as the preview of a message that is a picture alone (domain/service-chat.ts). */
const PICTURE_PREVIEW = '[picture]';

export function InboxPage({ id }: { id?: string }) {
  const { t } = useLingui();
  const [view, setView] = useState<View>(() => (sessionStorage.getItem(VIEW_KEY) as View | null) ?? 'waiting');
  const [list, setList] = useState<{ view: View; rows: ConsoleConversation[] } | null>(null);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [error, setError] = useState('');
  // An answer of a view left meanwhile is dropped: it would replace the chosen view's rows.
  const shown = useRef(view);
  const load = async (of = shown.current) => {
    try {
      const [queues, rows] = await Promise.all([
        consoleApi(consoleQueues),
        consoleApi(consoleConversations, { view: of }),
      ]);
      if (of !== shown.current) return;
      inboxCount.waiting = queues.service;
      setWaiting(queues.service);
      setList({ view: of, rows });
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  usePolling(load, QUEUES_POLL_MS);
  const choose = (next: View) => {
    sessionStorage.setItem(VIEW_KEY, next);
    shown.current = next;
    setView(next);
    setList(null);
    void load(next);
  };
  const views: Record<View, string> = {
    waiting: t`Waiting`,
    mine: t({ message: 'Mine', context: 'console' }),
    unassigned: t`Unassigned`,
    open: t`All open`,
    closed: t`Closed`,
  };
  return (
    <section className={`console-inbox${id ? ' console-inbox-chosen' : ''}`}>
      <div className="console-inbox-list">
        <div className="console-page-head">
          <h1>
            <Trans>Inbox</Trans>
          </h1>
          <Link href="/inbox/canned" className="console-inbox-manage">
            <Trans>Canned replies</Trans>
          </Link>
        </div>
        <div className="console-tabs" role="tablist">
          {(Object.keys(views) as View[]).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={view === name}
              className={view === name ? 'active' : ''}
              onClick={() => choose(name)}
            >
              {views[name]}
              {name === 'waiting' && (
                <>
                  {' '}
                  <span className="console-count">{waiting ?? '…'}</span>
                </>
              )}
            </button>
          ))}
        </div>
        <ErrorLine error={error} />
        {list && list.view === view && <ConversationList rows={list.rows} chosen={id} />}
      </div>
      <div className="console-inbox-pane">
        {id ? (
          <InboxConversation key={id} id={id} onChanged={() => void load()} />
        ) : (
          <p className="console-empty console-inbox-none">
            <Trans>Choose a conversation to read and answer it.</Trans>
          </p>
        )}
      </div>
    </section>
  );
}

function ConversationList({ rows, chosen }: { rows: ConsoleConversation[]; chosen?: string }) {
  const { t } = useLingui();
  if (rows.length === 0)
    return (
      <p className="console-empty">
        <Trans>No conversation here.</Trans>
      </p>
    );
  return (
    <ul className="console-conversations" aria-label={t`Conversations`}>
      {rows.map((row) => (
        <li key={row.id}>
          <Link
            href={`/inbox/${row.id}`}
            className={String(row.id) === chosen ? 'active' : ''}
            aria-current={String(row.id) === chosen ? 'page' : undefined}
          >
            <span className="console-conversation-head">
              <strong>{row.username}</strong>
              <ShortTime iso={row.last_message_at} />
            </span>
            <span className="console-conversation-preview">
              {row.last_message === PICTURE_PREVIEW ? t`[Picture]` : <bdi>{row.last_message}</bdi>}
            </span>
            <span className="console-conversation-foot">
              <span>{row.assigned_to ?? t`Unassigned`}</span>
              {row.waiting && (
                <span className="console-waiting">
                  <Trans>Waits for an answer</Trans>
                </span>
              )}
              {row.status === 'closed' && <span className="console-status">{t`Closed`}</span>}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The navigation's item: the conversations waiting, as the queues or the inbox last counted them. */
export function InboxNavLabel() {
  const { waiting } = useSnapshot(inboxCount);
  return (
    <>
      <Trans>Inbox</Trans>
      {waiting ? <span className="console-count console-count-waiting">{waiting}</span> : null}
    </>
  );
}
