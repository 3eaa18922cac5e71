// Choose the display currency (/pages/mine/setting/chooseMoneyType): one tap saves it.
import { Trans } from '@lingui/react/macro';
import { CURRENCIES, type Currency } from '../../api-contract/constants.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { Cell } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { currencyName, saveProfile, savedText, useUser } from './profile-store.ts';

export default function CurrencyPage() {
  const { user } = useUser();
  const { busy, submit: save } = useSubmit(async (currency: Currency) => {
    await saveProfile({ currency });
    toast(savedText());
  });

  const choose = async (currency: Currency) => {
    if (busy || currency === user?.currency) return;
    await save(currency);
  };

  return (
    <div className="page">
      <NavBar title={<Trans>Currency</Trans>} />
      <div className="page-body">
        <div className="card flush cells currency-list" role="menu">
          {CURRENCIES.map((currency) => {
            const checked = currency === user?.currency;
            return (
              <Cell
                key={currency}
                label={
                  <>
                    <strong>{currency}</strong> <span className="muted">{currencyName(currency)}</span>
                  </>
                }
                checked={checked}
                value={checked ? '✓' : ''}
                onClick={() => void choose(currency)}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
