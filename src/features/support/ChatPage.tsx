// Customer service chat: the conversation with the service team, newest at the
// bottom. A message (words, a picture, or both) waits in the outbox until it is sent, offline too,
// and shows as waiting meanwhile; one the server refused stays with the reason until removed. The
// answers shown are marked seen; while the page is open it asks for new ones every 10 seconds.
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import * as v from 'valibot';
import {
  CHAT_MESSAGE_MAX,
  chatBody,
  chatHistory,
  chatTexts,
  type ChatMessage,
} from '../../api-contract/service-chat.ts';
import { textById, texts } from '../../api-contract/texts.ts';
import { firstIssueTextId } from '../../api-contract/fields.ts';
import { errorText } from '../../lib/api.ts';
import { chat, loadChat, loadOlderChat, markChatRead, queueChatMessage } from '../../lib/chat.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatMessageDate } from '../../lib/message-date.ts';
import { downscaleImage, usePicture } from '../../lib/images.ts';
import { offlineData } from '../../lib/offline.ts';
import { outbox } from '../../lib/outbox.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { CameraIcon, TrashIcon } from '../../ui/icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Verbatim } from '../../ui/Verbatim.tsx';
import './support.css';
import { unitsFor } from '../../api-contract/constants.ts';

const POLL_MS = 10_000;
/** Chat pictures are shrunk like the other uploads: small on a phone's network. */
const PICTURE_MAX = 1600;

export default function ChatPage() {
  const state = useSnapshot(chat);
  const { token } = useSnapshot(session);
  // Another session's conversation (a logout, another account) is never shown, not even for a frame.
  const { messages, more, loaded } = state.token === token ? state : { messages: [], more: false, loaded: false };
  const [failure, setFailure] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let stopped = false;
    const refresh = (loading = false) =>
      loadChat({ loading })
        .then(() => !stopped && setFailure(null))
        .catch((error) => !stopped && setFailure(errorText(error)));
    void refresh(true);
    const timer = setInterval(() => document.visibilityState === 'visible' && void refresh(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);

  // What is on screen is seen; a new message scrolls into view.
  const lastId = messages.at(-1)?.id ?? 0;
  const pending = useSnapshot(outbox).pending.length;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
    if (lastId) markChatRead().catch(() => undefined);
  }, [lastId, pending]);

  return (
    <div className="page chat-page">
      <NavBar title={<Trans>Customer service</Trans>} />
      <div className="chat-body">
        <OfflineNote endpoints={[chatHistory]} />
        {more && <OlderButton />}
        {loaded && !messages.length && !pending && (
          <p className="chat-empty muted">
            <Trans>
              Write to us here: the service team answers in this conversation, and you get a notification if you turned
              them on.
            </Trans>
          </p>
        )}
        {!loaded && failure && <p className="chat-empty muted">{failure}</p>}
        {messages.map((message) => (
          <Bubble key={message.id} message={message} />
        ))}
        <Waiting />
        <div ref={bottom} />
      </div>
      <Composer />
    </div>
  );
}

function OlderButton() {
  const [busy, setBusy] = useState(false);
  const older = () => {
    setBusy(true);
    loadOlderChat()
      .catch((error) => toast(errorText(error)))
      .finally(() => setBusy(false));
  };
  return (
    <button type="button" className="chat-older" onClick={older} disabled={busy}>
      <Trans>Earlier messages</Trans>
    </button>
  );
}

function Bubble({ message }: { message: Readonly<ChatMessage> }) {
  const mine = message.author === 'customer';
  return (
    <div className={`chat-row ${mine ? 'mine' : 'theirs'}`}>
      <div className="chat-bubble">
        {!mine && (
          <span className="chat-author">
            <Trans>Customer service</Trans>
          </span>
        )}
        {message.picture && <ChatPicture url={message.picture} />}
        {message.body && <p dir="auto">{message.body}</p>}
        <time dateTime={message.created_at}>{formatMessageDate(message.created_at)}</time>
      </div>
    </div>
  );
}

function ChatPicture({ url }: { url: string }) {
  const picture = usePicture(url);
  if (picture.status === 'ready') return <img className="chat-picture" src={picture.src} alt="" />;
  return <span className="chat-picture placeholder">{picture.status === 'failed' ? picture.text : ''}</span>;
}

/** The messages still in the outbox, then those the server refused (with the reason and a way to remove them). */
function Waiting() {
  const { pending, refused } = useSnapshot(outbox);
  const { online } = useSnapshot(offlineData);
  const chats = pending.filter((entry) => entry.kind === 'chat-message');
  return (
    <>
      {chats.map((entry) => (
        <div key={entry.key} className="chat-row mine waiting">
          <div className="chat-bubble">
            {entry.picture.startsWith('data:') ? (
              <img className="chat-picture" src={entry.picture} alt="" />
            ) : (
              entry.picture && <ChatPicture url={entry.picture} />
            )}
            {entry.body && <p dir="auto">{entry.body}</p>}
            <span className="chat-state" role="status">
              {online ? <Trans>Sending…</Trans> : <Trans>Waiting for the network: sent when you are back online</Trans>}
            </span>
          </div>
        </div>
      ))}
      {refused.map((entry, index) => (
        <div key={entry.key} className="chat-row mine refused">
          <div className="chat-bubble">
            {entry.body && <p dir="auto">{entry.body}</p>}
            <span className="chat-state" role="alert">
              <Trans>
                Not sent: <Verbatim text={entry.reason} />
              </Trans>
            </span>
            <button type="button" className="chat-remove" onClick={() => outbox.refused.splice(index, 1)}>
              <TrashIcon />
              <Trans>Remove</Trans>
            </button>
          </div>
        </div>
      ))}
    </>
  );
}

function Composer() {
  const { t } = useLingui();
  const [body, setBody] = useState('');
  const [picture, setPicture] = useState<string>('');
  const file = useRef<HTMLInputElement>(null);

  const choose = async (chosen: File | undefined) => {
    if (!chosen) return;
    if (!chosen.type.startsWith('image/')) return toast(i18n._(texts.uploadNotImage));
    try {
      setPicture(await dataUrlOf(await downscaleImage(chosen, PICTURE_MAX)));
    } catch {
      // Said to be a picture, but the browser could not read it.
      toast(i18n._(texts.readingError));
    }
  };

  const { busy, submit: send } = useSubmit(
    async () => {
      setBody('');
      setPicture('');
      // Kept first, then sent: a failure of the network leaves it waiting in the outbox, not lost.
      await queueChatMessage(body.trim(), picture);
    },
    () => {
      const words = body.trim();
      if (!words && !picture) return i18n._(chatTexts.chatEmpty);
      // The API contract's rule (visible text, at most CHAT_MESSAGE_MAX characters), before the message is kept: the
      // server would refuse it from the outbox.
      return words ? chatBodyError(words) : null;
    },
  );

  return (
    <form
      className="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {picture && (
        <div className="chat-chosen">
          <img src={picture} alt={t`Picture to send`} />
          <button
            type="button"
            className="icon-button"
            onClick={() => setPicture('')}
            aria-label={t`Remove the picture`}
          >
            <TrashIcon />
          </button>
        </div>
      )}
      <div className="chat-inputs">
        <button
          type="button"
          className="icon-button chat-attach"
          onClick={() => file.current?.click()}
          aria-label={t`Send a picture`}
          title={t`Send a picture`}
        >
          <CameraIcon />
        </button>
        <input
          ref={file}
          type="file"
          accept="image/*"
          hidden
          onChange={(event) => void choose(event.target.files?.[0]).finally(() => (event.target.value = ''))}
        />
        <textarea
          value={body}
          onChange={(event) => setBody(event.target.value)}
          placeholder={t`Write a message`}
          aria-label={t`Write a message`}
          rows={1}
          maxLength={unitsFor(CHAT_MESSAGE_MAX)}
          enterKeyHint="send"
        />
        <button type="submit" className="btn small" disabled={busy}>
          <Trans>Send</Trans>
        </button>
      </div>
    </form>
  );
}

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

/** The chat's text for the first rule `words` breaks (chatBody: its own texts, such as "too long", or the contract's),
 * or null when they may be sent. */
function chatBodyError(words: string): string | null {
  const checked = v.safeParse(chatBody, words, { abortEarly: true });
  if (checked.success) return null;
  const own = Object.values(chatTexts).find((text) => text.id === checked.issues[0].message);
  return i18n._(own ?? textById[firstIssueTextId(checked.issues)]!);
}
