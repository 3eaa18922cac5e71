// The "Language" row of the mine and settings lists: opens the sheet of the six locales (the page reloads after
// a change).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { LOCALES, LOCALE_NAMES } from '../../api-contract/constants.ts';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';
import { GlobeIcon } from '../../ui/icons.tsx';
import { Cell, Sheet } from '../../ui/lists.tsx';

export function LanguageCell({ withIcon = false }: { withIcon?: boolean }) {
  const { t } = useLingui();
  const [choosing, setChoosing] = useState(false);
  const locale = currentLocale();
  return (
    <>
      <Cell
        icon={withIcon ? <GlobeIcon className="cell-icon" /> : undefined}
        label={<Trans>Language</Trans>}
        value={LOCALE_NAMES[locale]}
        onClick={() => setChoosing(true)}
      />
      {choosing && (
        <Sheet
          title={t`Language`}
          options={LOCALES.map((option) => ({ value: option, label: LOCALE_NAMES[option] }))}
          value={locale}
          onChoose={(option) => {
            setChoosing(false);
            // The same language needs no reload.
            if (option !== locale) void changeLocale(option);
          }}
          onClose={() => setChoosing(false)}
        />
      )}
    </>
  );
}
