// The inbox's canned replies: the answers the team gives often, each with a short title the answer
// box's picker shows; every reviewer shares them, adds and removes them.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CANNED_TITLE_MAX,
  consoleAddCannedReply,
  consoleCannedReplies,
  consoleRemoveCannedReply,
} from '../api-contract/console-service.ts';
import { CHAT_MESSAGE_MAX } from '../api-contract/service-chat.ts';
import { consoleApi } from './api.ts';
import { ErrorLine, useAction, useLoad } from './parts.tsx';
import { unitsFor } from '../api-contract/constants.ts';

export function CannedRepliesPage() {
  const { t } = useLingui();
  const [replies, loadError, reload] = useLoad(() => consoleApi(consoleCannedReplies), 'canned');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const { busy, error, run: act } = useAction(reload);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => consoleApi(consoleAddCannedReply, { title: title.trim(), body: body.trim() }))) {
      setTitle('');
      setBody('');
    }
  };
  return (
    <section className="console-canned">
      <Link href="/inbox" className="console-back">
        ← <Trans>Inbox</Trans>
      </Link>
      <h1>
        <Trans>Canned replies</Trans>
      </h1>
      <form className="console-card" onSubmit={(event) => void add(event)}>
        <h2>
          <Trans>New canned reply</Trans>
        </h2>
        <label>
          <Trans>Title (only the team sees it)</Trans>
          <input
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            maxLength={unitsFor(CANNED_TITLE_MAX)}
          />
        </label>
        <label>
          <Trans>Answer (the customer reads it)</Trans>
          <textarea
            value={body}
            onChange={(event) => setBody(event.target.value)}
            rows={4}
            maxLength={unitsFor(CHAT_MESSAGE_MAX)}
          />
        </label>
        <ErrorLine error={error} />
        <div className="console-actions">
          <button type="submit" className="primary" disabled={busy}>
            <Trans>Add canned reply</Trans>
          </button>
        </div>
      </form>
      <ErrorLine error={loadError} />
      {replies &&
        (replies.length === 0 ? (
          <p className="console-empty">
            <Trans>No canned replies yet.</Trans>
          </p>
        ) : (
          <ul className="console-canned-list" aria-label={t`Canned replies`}>
            {replies.map((reply) => (
              <li key={reply.id}>
                <div>
                  <strong>{reply.title}</strong>
                  <p>{reply.body}</p>
                </div>
                <button
                  type="button"
                  className="danger small"
                  disabled={busy}
                  aria-label={t`Remove ${reply.title}`}
                  onClick={() => void act(() => consoleApi(consoleRemoveCannedReply, { id: String(reply.id) }))}
                >
                  <Trans>Remove</Trans>
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
