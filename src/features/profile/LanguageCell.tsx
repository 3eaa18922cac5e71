// The "Language" row of the mine and settings lists: opens the sheet of the six locales (the page reloads after
// a change).
import { Trans, useLingui } from '@lingui/react/macro';
import { LOCALES, LOCALE_NAMES } from '../../api-contract/constants.ts';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';
import { GlobeIcon } from '../../ui/icons.tsx';
import { ChoiceCell } from '../../ui/lists.tsx';

export function LanguageCell({ withIcon = false }: { withIcon?: boolean }) {
  const { t } = useLingui();
  const locale = currentLocale();
  return (
    <ChoiceCell
      icon={withIcon ? <GlobeIcon className="cell-icon" /> : undefined}
      label={<Trans>Language</Trans>}
      title={t`Language`}
      options={LOCALES.map((option) => ({ value: option, label: LOCALE_NAMES[option] }))}
      value={locale}
      // The same language needs no reload.
      onChoose={(option) => {
        if (option !== locale) void changeLocale(option);
      }}
    />
  );
}
