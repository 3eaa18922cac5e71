// The top of the login pages: logo, title, and the language switch (a new user picks it first).
import { useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { LOCALES, LOCALE_NAMES } from '../../api-contract/constants.ts';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';
import { goBack } from '../../lib/navigation.ts';
import { BackIcon, GlobeIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/lists.tsx';

export function AccountHeader({
  title,
  subtitle,
  back = false,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  back?: boolean;
}) {
  const { t } = useLingui();
  const [choosing, setChoosing] = useState(false);
  return (
    <header className="auth-header">
      <div className="auth-header-bar">
        {back ? (
          <button type="button" className="icon-button" onClick={() => goBack()} aria-label={t`Back`}>
            <BackIcon className="flip-rtl" />
          </button>
        ) : (
          <span />
        )}
        <button type="button" className="icon-button" onClick={() => setChoosing(true)} aria-label={t`Language`}>
          <GlobeIcon />
        </button>
      </div>
      <img src="/favicon.svg" alt="" className="auth-logo" width="56" height="56" />
      <h1 tabIndex={-1}>{title}</h1>
      {subtitle && <p>{subtitle}</p>}
      {choosing && (
        <Sheet
          title={t`Language`}
          options={LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))}
          value={currentLocale()}
          onChoose={(locale) => void changeLocale(locale)}
          onClose={() => setChoosing(false)}
        />
      )}
    </header>
  );
}
