// One conversation of the inbox: the messages oldest first (the customer's on the left, the team's on
// the right with the operator's name) with the team's internal notes among them at their time,
// refreshed while it is open; the customer's withdrawals in review beside them; taking it, giving it
// to another reviewer or to nobody, closing it; and the answer box with the canned replies, or a note.
// While the operator types an answer the console tells the server every few seconds, so the others
// viewing it see who is answering (with the same refresh) and confirm before sending one too. The
// server's refusals show as it answered them.
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ANSWERING_SECONDS,
  consoleAddServiceNote,
  consoleAnswering,
  consoleAssignConversation,
  consoleCannedReplies,
  consoleCloseConversation,
  consoleConversation,
  consoleReplyConversation,
  consoleServiceOperators,
  consoleUnassignConversation,
  type ConsoleChatMessage,
  type ConsoleConversation,
  type ConsoleServiceNote,
  type OpenWithdrawal,
} from '../api-contract/console-service.ts';
import { CHAT_MESSAGE_MAX } from '../api-contract/service-chat.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { decimalsPerAsset, formatAmount, formatTime } from './format.ts';
import { consoleSession } from './session.ts';
import { ErrorLine, PrivatePicture, ShortTime, useAction, useLoad, usePolling } from './parts.tsx';
import { unitsFor } from '../api-contract/constants.ts';

/** How often an open conversation is asked again: the customer may be writing now. */
const CONVERSATION_POLL_MS = 5_000;
/** Unsent answers and notes, by conversation ('note:<id>' for a note): choosing another one and coming back keeps the
 * words. */
const drafts = new Map<string, string>();
/** While typing, the server is told again this often: well inside ANSWERING_SECONDS, so the warning does not lapse. */
const ANSWERING_RENEW_MS = (ANSWERING_SECONDS * 1000) / 3;

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
  const { conversation, messages, notes, answering } = detail;
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
      <OpenWithdrawals rows={detail.open_withdrawals} />
      <ErrorLine error={error} />
      <Messages username={conversation.username} messages={messages} notes={notes} />
      <ReplyBox id={id} answering={answering} onSent={changed} />
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
  const [reviewers] = useLoad(() => consoleApi(consoleServiceOperators), 'service-operators');
  const { busy, error, run: act } = useAction(onChanged);
  const id = String(conversation.id);
  const assign = (name: string) =>
    void act(() =>
      name
        ? consoleApi(consoleAssignConversation, { id, operator: name })
        : consoleApi(consoleUnassignConversation, { id }),
    );
  // The one it is assigned to stays a choice even when no longer active (disabled since).
  const names = [...new Set([...(reviewers ?? []), ...(conversation.assigned_to ? [conversation.assigned_to] : [])])];
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
        <label className="console-inline">
          <Trans>Assign to</Trans>
          <select
            value={conversation.assigned_to ?? ''}
            disabled={busy || !reviewers}
            onChange={(event) => assign(event.target.value)}
          >
            <option value="">{t`Unassigned`}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name === me ? t`${name} (you)` : name}
              </option>
            ))}
          </select>
        </label>
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

/** The customer's withdrawals in review, each a link to its page. */
function OpenWithdrawals({ rows }: { rows: readonly OpenWithdrawal[] }) {
  const { t } = useLingui();
  const decimals = decimalsPerAsset(rows.map((row) => [row.asset, row.amount] as const));
  return (
    <section className="console-open-withdrawals" aria-label={t`Open withdrawals`}>
      <h3>
        <Trans>Open withdrawals</Trans>
      </h3>
      {rows.length === 0 ? (
        <span className="console-muted">
          <Trans>None in review.</Trans>
        </span>
      ) : (
        <ul>
          {rows.map((row) => (
            <li key={row.id}>
              <Link href={`/withdrawal/${row.id}`}>{row.order_no}</Link>{' '}
              <strong>{formatAmount(row.amount, row.asset, decimals(row.asset))}</strong>{' '}
              <ShortTime iso={row.created_at} className="console-muted" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Entry = { kind: 'message'; message: ConsoleChatMessage } | { kind: 'note'; note: ConsoleServiceNote };

/** Messages and notes in the order they were written (a note written the same instant as a message after it). */
function timeline(messages: readonly ConsoleChatMessage[], notes: readonly ConsoleServiceNote[]): Entry[] {
  const entries: Entry[] = messages.map((message) => ({ kind: 'message', message }));
  let at = 0;
  for (const note of notes) {
    while (at < entries.length && atOf(entries[at]!) <= note.created_at) at += 1;
    entries.splice(at, 0, { kind: 'note', note });
    at += 1;
  }
  return entries;
}
const atOf = (entry: Entry) => (entry.kind === 'message' ? entry.message.created_at : entry.note.created_at);

function Messages({
  username,
  messages,
  notes,
}: {
  username: string;
  messages: readonly ConsoleChatMessage[];
  notes: readonly ConsoleServiceNote[];
}) {
  const { t } = useLingui();
  const box = useRef<HTMLOListElement>(null);
  const last = `${messages.at(-1)?.id}:${notes.at(-1)?.id}`;
  // A new message or note (the customer's, or the answer just sent) scrolls into view; a refresh without one leaves
  // the reader where they are.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [last]);
  if (messages.length === 0 && notes.length === 0)
    return (
      <p className="console-empty console-chat">
        <Trans>No message yet.</Trans>
      </p>
    );
  return (
    <ol className="console-chat" aria-label={t`Messages`} ref={box}>
      {timeline(messages, notes).map((entry) =>
        entry.kind === 'note' ? (
          <NoteEntry key={`note-${entry.note.id}`} note={entry.note} />
        ) : (
          <MessageEntry key={entry.message.id} username={username} message={entry.message} />
        ),
      )}
    </ol>
  );
}

function NoteEntry({ note }: { note: ConsoleServiceNote }) {
  return (
    <li className="console-note">
      <strong className="console-note-label">
        <Trans>Internal note — the customer does not see this</Trans>
      </strong>
      <span className="console-bubble-meta">
        {note.operator} · <time dateTime={note.created_at}>{formatTime(note.created_at)}</time>
      </span>
      <span className="console-bubble-body" dir="auto">
        {note.body}
      </span>
    </li>
  );
}

function MessageEntry({ username, message }: { username: string; message: ConsoleChatMessage }) {
  const { t } = useLingui();
  return (
    <li className={`console-bubble console-bubble-${message.author}`}>
      <span className="console-bubble-meta">
        {message.author === 'customer' ? username : (message.operator ?? t`Service team`)} ·{' '}
        <time dateTime={message.created_at}>{formatTime(message.created_at)}</time>
      </span>
      {message.picture && <PrivatePicture id={message.picture} alt={t`Picture from ${username}`} />}
      {message.body && (
        <span className="console-bubble-body" dir="auto">
          {message.body}
        </span>
      )}
    </li>
  );
}

/** Who else is answering it now: one line each, and a confirmation before sending an answer too. */
function AnsweringWarning({ names }: { names: readonly string[] }) {
  if (names.length === 0) return null;
  return (
    <div className="console-answering" role="status">
      {names.map((name) => (
        <p key={name}>
          <Trans>{name} is answering…</Trans>
        </p>
      ))}
    </div>
  );
}

type Mode = 'answer' | 'note';

function ReplyBox({
  id,
  answering,
  onSent,
}: {
  id: string;
  answering: readonly string[];
  onSent: () => Promise<void>;
}) {
  const { t } = useLingui();
  const [canned] = useLoad(() => consoleApi(consoleCannedReplies), 'canned');
  const [mode, setMode] = useState<Mode>('answer');
  const key = mode === 'note' ? `note:${id}` : id;
  const [texts, setTexts] = useState(() => ({ answer: drafts.get(id) ?? '', note: drafts.get(`note:${id}`) ?? '' }));
  const body = texts[mode];
  const { busy, error, run } = useAction(onSent);
  const field = useRef<HTMLTextAreaElement>(null);
  const told = useRef(0);
  const write = (text: string) => {
    setTexts((now) => ({ ...now, [mode]: text }));
    drafts.set(key, text);
    if (mode !== 'answer') return;
    // Typing an answer: the others are told, at most every ANSWERING_RENEW_MS (a failure only leaves them untold);
    // an emptied box tells them it is over.
    if (text.trim() && Date.now() - told.current > ANSWERING_RENEW_MS) {
      told.current = Date.now();
      consoleApi(consoleAnswering, { id }).catch(() => (told.current = 0));
    } else if (!text.trim() && told.current) {
      told.current = 0;
      consoleApi(consoleAnswering, { id, typing: 'false' }).catch(() => undefined);
    }
  };
  const send = async () => {
    if (busy) return;
    if (mode === 'note') {
      await run(async () => {
        await consoleApi(consoleAddServiceNote, { id, body: body.trim() });
        write('');
      });
      return;
    }
    const others = answering.join(', ');
    if (others && !confirm(t`${others} is answering this conversation too. Send your answer anyway?`)) return;
    await run(async () => {
      await consoleApi(consoleReplyConversation, { id, body: body.trim() });
      told.current = 0;
      write('');
    });
  };
  const choose = (next: Mode) => {
    setMode(next);
    field.current?.focus();
  };

  return (
    <form
      className={`console-reply${mode === 'note' ? ' console-reply-note' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <AnsweringWarning names={answering} />
      <div className="console-reply-modes">
        <button type="button" aria-pressed={mode === 'answer'} onClick={() => choose('answer')}>
          <Trans>Answer the customer</Trans>
        </button>
        <button type="button" aria-pressed={mode === 'note'} onClick={() => choose('note')}>
          <Trans>Internal note</Trans>
        </button>
      </div>
      <textarea
        ref={field}
        aria-label={mode === 'note' ? t`Internal note` : t`Answer`}
        placeholder={
          mode === 'note'
            ? t`A note for the team: the customer does not see it (Ctrl+Enter adds it)`
            : t`Write the answer (Ctrl+Enter sends)`
        }
        rows={3}
        maxLength={unitsFor(CHAT_MESSAGE_MAX)}
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
        {mode === 'answer' ? (
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
        ) : (
          <span className="console-muted">
            <Trans>Only the team sees notes.</Trans>
          </span>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {mode === 'note' ? <Trans>Add note</Trans> : <Trans>Send</Trans>}
        </button>
      </div>
    </form>
  );
}
