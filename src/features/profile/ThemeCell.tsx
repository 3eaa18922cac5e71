// The "Appearance" row of Settings: System (the device's light or dark), Light or Dark, kept on this device. The page
// changes at once; the next start paints in it from its first frame (the first screen's hint).
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { chooseTheme, themeChoice, type ThemeChoice } from '../../lib/theme.ts';
import { THEME_CHOICES } from '../../lib/theme-pick.ts';
import { ChoiceCell } from '../../ui/lists.tsx';

export function ThemeCell() {
  const { t } = useLingui();
  const { theme } = useSnapshot(themeChoice);
  const names: Record<ThemeChoice, string> = { system: t`System`, light: t`Light`, dark: t`Dark` };
  return (
    <ChoiceCell
      label={<Trans>Appearance</Trans>}
      title={t`Appearance`}
      options={THEME_CHOICES.map((option) => ({ value: option, label: names[option] }))}
      value={theme}
      onChoose={chooseTheme}
    />
  );
}
