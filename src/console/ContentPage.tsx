// The content role's page: what customers read — the scroll notice, slides,
// station messages, activities and pages — one item's versions in every language side by side,
// each written and saved on its own, the save confirmed beside it and the item list updated at once. A
// language without a version shows the English one.
import { useState } from 'react';
import * as v from 'valibot';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CONTENT_BODY_MAX,
  CONTENT_TITLE_MAX,
  contentBody,
  contentTitle,
  consoleContentItems,
  consoleContentVersions,
  consoleSaveContentVersion,
  type ContentKind,
  type ContentVersion,
} from '../api-contract/console-content.ts';
import { isolate } from '../api-contract/visible-text.ts';
import { ConsoleError, consoleApi, messageOf } from './api.ts';
import { ErrorLine, useLoad, useSingleRun } from './parts.tsx';
import './console-pages.css';

/** The languages' own names, as a customer of each reads it. */
const LANGUAGE_NAMES: Record<ContentVersion['lang'], string> = {
  en: 'English',
  zh: '中文',
  th: 'ไทย',
  jp: '日本語',
  ar: 'العربية',
  hi: 'हिन्दी',
};
/** Which fields an item of each kind shows: the notice is a line of text, a slide a picture's caption, a lock-up
 * product or a prize a name. */
const FIELDS: Record<ContentKind, { title: boolean; body: boolean }> = {
  notice: { title: false, body: true },
  slide: { title: true, body: false },
  message: { title: true, body: true },
  activity: { title: true, body: true },
  page: { title: true, body: true },
  lockup: { title: true, body: false },
  prize: { title: true, body: false },
};

export function ContentPage() {
  const { t } = useLingui();
  const [kind, setKind] = useState<ContentKind>('notice');
  const [itemId, setItemId] = useState<string | null>(null);
  const [items, itemsError, reloadItems] = useLoad(() => consoleApi(consoleContentItems, { kind }), kind);
  const kinds: Record<ContentKind, string> = {
    notice: t`Scroll notice`,
    slide: t`Slides`,
    message: t`Station messages`,
    activity: t`Activities`,
    page: t`Pages`,
    lockup: t`Lock-up products`,
    prize: t`Blind box prizes`,
  };
  return (
    <section>
      <h1>
        <Trans>Content</Trans>
      </h1>
      <div className="console-tabs" role="tablist">
        {(Object.keys(kinds) as ContentKind[]).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={kind === name}
            className={kind === name ? 'active' : ''}
            onClick={() => {
              setKind(name);
              setItemId(null);
            }}
          >
            {kinds[name]}
          </button>
        ))}
      </div>
      <ErrorLine error={itemsError} />
      <div className="console-content">
        <ul className="console-items" aria-label={t`Items`}>
          {items?.map((item) => (
            <li key={item.id}>
              <button type="button" className={item.id === itemId ? 'active' : ''} onClick={() => setItemId(item.id)}>
                {item.title || item.id}
              </button>
            </li>
          ))}
          {items?.length === 0 && (
            <li className="console-empty">
              <Trans>None.</Trans>
            </li>
          )}
        </ul>
        {itemId ? (
          <Versions key={`${kind}:${itemId}`} kind={kind} id={itemId} onSaved={reloadItems} />
        ) : (
          <p className="console-empty">
            <Trans>Choose an item to see its versions in every language.</Trans>
          </p>
        )}
      </div>
    </section>
  );
}

/** `onSaved`: the item list asks again, so an English title or notice just saved shows there at once. */
function Versions({ kind, id, onSaved }: { kind: ContentKind; id: string; onSaved: () => Promise<void> }) {
  const [loaded, error] = useLoad(() => consoleApi(consoleContentVersions, { kind, id }), `${kind}:${id}`);
  const [saved, setSaved] = useState<ContentVersion[] | null>(null);
  const versions = saved ?? loaded;
  if (!versions) return <ErrorLine error={error} />;
  return (
    <div className="console-versions">
      {versions.map((version) => (
        <VersionCard
          key={version.lang}
          kind={kind}
          id={id}
          version={version}
          english={versions.find((each) => each.lang === 'en') ?? version}
          onSaved={(answer) => {
            setSaved(answer);
            void onSaved();
          }}
        />
      ))}
    </div>
  );
}

function VersionCard({
  kind,
  id,
  version,
  english,
  onSaved,
}: {
  kind: ContentKind;
  id: string;
  version: ContentVersion;
  /** The English version: what a language not written shows customers, so its empty fields show it as placeholder. */
  english: ContentVersion;
  onSaved: (versions: ContentVersion[]) => void;
}) {
  const { t } = useLingui();
  const fields = FIELDS[kind];
  const [title, setTitle] = useState(version.written ? version.title : '');
  const [body, setBody] = useState(version.written ? version.body : '');
  const [error, setError] = useState('');
  const { busy, once } = useSingleRun();
  /** The last save went through and nothing was typed since. */
  const [saved, setSaved] = useState(false);
  const dir = version.lang === 'ar' ? 'rtl' : 'ltr';
  // The English shown as placeholder keeps its own direction in a right-to-left field (its full stop stays at its end).
  const hint = (english: string) => (version.written ? '' : dir === 'rtl' ? isolate(english) : english);
  const titleLabel = kind === 'lockup' || kind === 'prize' ? t`Name` : t`Title`;
  const save = () =>
    once(async () => {
      try {
        // Said by field, in the operator's words, before anything is sent: which field holds a hidden character.
        const typed = [
          [titleLabel, contentTitle, fields.title ? title : ''],
          [t`Text`, contentBody, fields.body ? body : ''],
        ] as const;
        for (const [field, rule, text] of typed) {
          const checked = v.safeParse(rule, text);
          const said = checked.success ? null : i18n._(checked.issues[0].message);
          if (said !== null) throw new ConsoleError(t`${field}: ${said}`);
        }
        const answer = await consoleApi(consoleSaveContentVersion, {
          kind,
          id,
          lang: version.lang,
          title: fields.title ? title : '',
          body: fields.body ? body : '',
        });
        // The fields show what the server kept.
        const kept = answer.find((each) => each.lang === version.lang);
        setTitle(kept?.written ? kept.title : '');
        setBody(kept?.written ? kept.body : '');
        setSaved(true);
        onSaved(answer);
        setError('');
      } catch (failure) {
        setError(messageOf(failure));
      }
    });
  const name = LANGUAGE_NAMES[version.lang];
  return (
    <article className="console-version" aria-label={name} lang={version.lang === 'jp' ? 'ja' : version.lang}>
      <header>
        <strong>{name}</strong>
        <span className="console-muted">
          {version.written ? <Trans>Written</Trans> : <Trans>Not written: shows the English version</Trans>}
        </span>
      </header>
      {fields.title && (
        <label>
          {titleLabel}
          <input
            dir={dir}
            value={title}
            placeholder={hint(english.title)}
            maxLength={CONTENT_TITLE_MAX}
            onChange={(event) => {
              setTitle(event.target.value);
              setSaved(false);
            }}
          />
        </label>
      )}
      {fields.body && (
        <label>
          <Trans>Text</Trans>
          <textarea
            dir={dir}
            rows={5}
            value={body}
            placeholder={hint(english.body)}
            maxLength={CONTENT_BODY_MAX}
            onChange={(event) => {
              setBody(event.target.value);
              setSaved(false);
            }}
          />
        </label>
      )}
      <ErrorLine error={error} />
      <div className="console-actions">
        <span role="status" className="console-version-saved">
          {saved && <Trans>Saved</Trans>}
        </span>
        <button
          type="button"
          className="primary small"
          disabled={busy}
          onClick={() => void save()}
          aria-label={t`Save ${name}`}
        >
          <Trans>Save</Trans>
        </button>
      </div>
    </article>
  );
}
