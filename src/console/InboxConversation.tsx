// One conversation of the inbox: the messages oldest first (the customer's on the left, the team's on
// the right with the operator's name), refreshed while it is open; taking it, handing it to another
// reviewer, closing it; and the answer box with the canned replies. The server's refusals show as
// it answered them.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleAssignConversation,
  consoleCannedReplies,
  consoleCloseConversation,
  consoleConversation,
  consoleReplyConversation,
  type ConsoleChatMessage,
  type ConsoleConversation,
} from '../contract/console-service.ts';
import { CHAT_MESSAGE_MAX } from '../contract/service-chat.ts';
import type { ResultOf } from '../contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatTime } from './format.ts';
import { consoleSession } from './session.ts';
import { ErrorLine, PrivatePicture, useAction, useLoad, usePolling } from './parts.tsx';

/** How often an open conversation is asked again: the customer may be writing now. */
const CONVERSATION_POLL_MS = 5_000;
/** Unsent answers, by conversation: choosing another one and coming back keeps the words. */
const drafts = new Map<string, string>();

type Detail = ResultOf<typeof consoleConversation>;

export function InboxConversation({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState('');
  const load = async () => {
    try {
      setDetail(await consoleApi(consoleConversation, { id }));
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  usePolling(load, CONVERSATION_POLL_MS);
  /** After a change of the operator's: this conversation and the list again. */
  const changed = async () => {
    await load();
    onChanged();
  };
  if (!detail)
    return (
      <div className="console-conversation">
        <BackToInbox />
        <ErrorLine error={error} />
      </div>
    );
  const { conversation, messages } = detail;
  return (
    <div className="console-conversation">
      <BackToInbox />
      <header className="console-conversation-top">
        <h2>
          {conversation.username}{' '}
          <Link href={`/customer/${conversation.user_id}`} className="console-conversation-record">
            <Trans>Customer record</Trans>
          </Link>
        </h2>
        <ConversationState conversation={conversation} />
      </header>
      <ConversationActions conversation={conversation} onChanged={changed} />
      <ErrorLine error={error} />
      <Messages username={conversation.username} messages={messages} />
      <ReplyBox id={id} onSent={changed} />
    </div>
  );
}

function BackToInbox() {
  return (
    <Link href="/inbox" className="console-back console-inbox-back">
      ← <Trans>Inbox</Trans>
    </Link>
  );
}

function ConversationState({ conversation }: { conversation: ConsoleConversation }) {
  return (
    <p className="console-conversation-state">
      {conversation.status === 'closed' ? (
        <span className="console-status">
          <Trans>Closed</Trans>
        </span>
      ) : conversation.waiting ? (
        <span className="console-waiting">
          <Trans>Waits for an answer</Trans>
        </span>
      ) : null}
      <span>
        {conversation.assigned_to ? <Trans>Assigned to {conversation.assigned_to}</Trans> : <Trans>Unassigned</Trans>}
      </span>
    </p>
  );
}

function ConversationActions({
  conversation,
  onChanged,
}: {
  conversation: ConsoleConversation;
  onChanged: () => Promise<void>;
}) {
  const { t } = useLingui();
  const me = useSnapshot(consoleSession).operator?.name;
  const [name, setName] = useState('');
  const { busy, error, run: act } = useAction(onChanged);
  const id = String(conversation.id);
  const assign = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => consoleApi(consoleAssignConversation, { id, operator: name.trim() }))) setName('');
  };
  return (
    <div className="console-conversation-actions">
      <div className="console-conversation-buttons">
        {conversation.assigned_to !== me && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void act(() => consoleApi(consoleAssignConversation, { id }))}
          >
            <Trans>Take it</Trans>
          </button>
        )}
        <form className="console-inline" onSubmit={(event) => void assign(event)}>
          <input
            aria-label={t`Reviewer's name`}
            placeholder={t`Reviewer's name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={32}
          />
          <button type="submit" disabled={busy || !name.trim()}>
            <Trans>Assign to</Trans>
          </button>
        </form>
        {conversation.status === 'open' && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => consoleApi(consoleCloseConversation, { id }))}
          >
            <Trans context="console">Close</Trans>
          </button>
        )}
      </div>
      <ErrorLine error={error} />
    </div>
  );
}

function Messages({ username, messages }: { username: string; messages: readonly ConsoleChatMessage[] }) {
  const { t } = useLingui();
  const box = useRef<HTMLOListElement>(null);
  const last = messages.at(-1)?.id;
  // A new message (the customer's, or the answer just sent) scrolls into view; a refresh without one leaves the reader
  // where they are.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [last]);
  if (messages.length === 0)
    return (
      <p className="console-empty console-chat">
        <Trans>No message yet.</Trans>
      </p>
    );
  return (
    <ol className="console-chat" aria-label={t`Messages`} ref={box}>
      {messages.map((message) => (
        <li key={message.id} className={`console-bubble console-bubble-${message.author}`}>
          <span className="console-bubble-meta">
            {message.author === 'customer' ? username : (message.operator ?? t`Service team`)} ·{' '}
            <time dateTime={message.created_at}>{formatTime(message.created_at)}</time>
          </span>
          {message.picture && <PrivatePicture id={message.picture} alt={t`Picture from ${username}`} />}
          {message.body && <span className="console-bubble-body">{message.body}</span>}
        </li>
      ))}
    </ol>
  );
}

function ReplyBox({ id, onSent }: { id: string; onSent: () => Promise<void> }) {
  const { t } = useLingui();
  const [canned] = useLoad(() => consoleApi(consoleCannedReplies), 'canned');
  const [body, setBody] = useState(() => drafts.get(id) ?? '');
  const { busy, error, run } = useAction(onSent);
  const field = useRef<HTMLTextAreaElement>(null);
  const write = (text: string) => {
    setBody(text);
    drafts.set(id, text);
  };
  const send = async () => {
    if (busy) return;
    await run(async () => {
      await consoleApi(consoleReplyConversation, { id, body: body.trim() });
      write('');
    });
  };

  return (
    <form
      className="console-reply"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea
        ref={field}
        aria-label={t`Answer`}
        placeholder={t`Write the answer (Ctrl+Enter sends)`}
        rows={3}
        maxLength={CHAT_MESSAGE_MAX}
        value={body}
        onChange={(event) => write(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <ErrorLine error={error} />
      <div className="console-reply-bar">
        <select
          aria-label={t`Canned reply`}
          value=""
          disabled={!canned?.length}
          onChange={(event) => {
            const reply = canned?.find((row) => String(row.id) === event.target.value);
            if (!reply) return;
            write(reply.body);
            field.current?.focus();
          }}
        >
          <option value="">{canned?.length === 0 ? t`No canned replies yet.` : t`Canned reply…`}</option>
          {canned?.map((reply) => (
            <option key={reply.id} value={reply.id}>
              {reply.title}
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={busy}>
          <Trans>Send</Trans>
        </button>
      </div>
    </form>
  );
}
