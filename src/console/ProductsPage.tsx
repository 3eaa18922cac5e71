// The admin's products: option products and contract pairs, each row's terms editable in
// place and saved on their own. Only the terms changed are sent; the API contract's rule for each term
// (the same as `npm run ops -- product|pair`) is checked before sending, a wrong value said by its field in the
// operator's language, and the server's answer is shown.
import { Fragment, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleChangeContractPair,
  consoleChangeOptionProduct,
  consoleContractPairs,
  consoleOptionProducts,
  type ConsoleContractPair,
  type ConsoleOptionProduct,
  type ContractPairTerm,
  type OptionProductTerm,
  type TermTakes,
  CONTRACT_PAIR_TAKES,
  OPTION_PRODUCT_TAKES,
} from '../api-contract/console-products.ts';
import { ConsoleError, consoleApi, messageOf } from './api.ts';
import { ErrorLine, useLoad, useSingleRun } from './parts.tsx';
import { sentNumber, typedNumber } from './format.ts';

/** A stored decimal as an operator writes it: "0.8500" → "0.85", "5.00000000" → "5". */
const plain = (decimal: string) => (decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal);

const productTerms = (product: ConsoleOptionProduct): Record<OptionProductTerm, string> => ({
  yield: plain(product.yield),
  min: plain(product.min),
  active: String(product.active),
});
const pairTerms = (pair: ConsoleContractPair): Record<ContractPairTerm, string> => ({
  tick: String(pair.tick),
  step: String(pair.step),
  min: plain(pair.min),
  fee: plain(pair.fee),
  band: plain(pair.band),
  active: String(pair.active),
});

interface Column<T extends string> {
  term: T;
  label: string;
  /** 'flag': a checkbox ('true' | 'false'); otherwise a text field with this keyboard. */
  kind: 'decimal' | 'numeric' | 'flag';
  /** What the field takes, said when a value is not one (the API contract's rule for the term, in words). */
  rule: string;
}

type Tab = 'options' | 'pairs';

export function ProductsPage() {
  const { t } = useLingui();
  const [tab, setTab] = useState<Tab>('options');
  const [coin, setCoin] = useState('');
  const [products, productsError] = useLoad(() => consoleApi(consoleOptionProducts), 'products');
  const [pairs, pairsError] = useLoad(() => consoleApi(consoleContractPairs), 'pairs');
  // What was saved since the lists loaded: a row shown again (another tab, another coin) starts from it.
  const [savedProducts, setSavedProducts] = useState<Record<number, ConsoleOptionProduct>>({});
  const [savedPairs, setSavedPairs] = useState<Record<string, ConsoleContractPair>>({});
  const coins = [...new Set(products?.map((product) => product.coin))];
  const tabs: Record<Tab, string> = { options: t`Option products`, pairs: t`Contract pairs` };
  const flag = t`Tick or clear the box.`;
  const decimals = t`Enter a whole number from 0 to 8.`;
  const productColumns: Column<OptionProductTerm>[] = [
    {
      term: 'yield',
      label: t`Yield on a win`,
      kind: 'decimal',
      rule: t`Enter a fraction of the stake above 0 and at most 1, with up to 4 decimals (85 % is 0.85).`,
    },
    {
      term: 'min',
      label: t`Least stake (USDT)`,
      kind: 'decimal',
      rule: t`Enter an amount in USDT above 0, with up to 8 decimals.`,
    },
    { term: 'active', label: t`Offered`, kind: 'flag', rule: flag },
  ];
  const pairColumns: Column<ContractPairTerm>[] = [
    { term: 'tick', label: t`Price decimals`, kind: 'numeric', rule: decimals },
    { term: 'step', label: t`Quantity decimals`, kind: 'numeric', rule: decimals },
    {
      term: 'min',
      label: t`Least order (USDT)`,
      kind: 'decimal',
      rule: t`Enter an amount in USDT, 0 or more, with up to 8 decimals.`,
    },
    {
      term: 'fee',
      label: t`Fee rate`,
      kind: 'decimal',
      rule: t`Enter a fraction below 0.1, with up to 6 decimals (0.1 % is 0.001).`,
    },
    {
      term: 'band',
      label: t`Price band`,
      kind: 'decimal',
      rule: t`Enter a fraction above 0 and below 1, with up to 4 decimals (10 % is 0.1).`,
    },
    { term: 'active', label: t`Offered`, kind: 'flag', rule: flag },
  ];
  return (
    <section>
      <h1>
        <Trans>Products</Trans>
      </h1>
      <p className="console-notice">
        <Trans>
          Terms apply to orders placed from now on: an order already placed keeps its own. Nothing here sets a price or
          an outcome.
        </Trans>
      </p>

      <div className="console-tabs" role="tablist">
        {(Object.keys(tabs) as Tab[]).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'active' : ''}
            onClick={() => setTab(name)}
          >
            {tabs[name]}
          </button>
        ))}
      </div>

      {tab === 'options' && (
        <>
          <div className="console-filters">
            <select aria-label={t`Coin`} value={coin} onChange={(event) => setCoin(event.target.value)}>
              <option value="">{t`All coins`}</option>
              {coins.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
            <span className="console-muted">
              <Trans>Yield 0.85 pays 85 % of the stake as profit on a win.</Trans>
            </span>
          </div>
          <ErrorLine error={productsError} />
          {products && (
            <TermsTable head={[t`Coin`, t`Period`]} columns={productColumns}>
              {products
                .filter((product) => !coin || product.coin === coin)
                .map((product) => (
                  <TermsRow
                    key={product.id}
                    name={t`${product.coin}, ${product.minutes} min`}
                    head={[product.coin, t`${product.minutes} min`]}
                    columns={productColumns}
                    saved={productTerms(savedProducts[product.id] ?? product)}
                    takes={OPTION_PRODUCT_TAKES}
                    write={async (changes) => {
                      const now = await consoleApi(consoleChangeOptionProduct, { id: String(product.id), ...changes });
                      setSavedProducts((saved) => ({ ...saved, [now.id]: now }));
                      return productTerms(now);
                    }}
                  />
                ))}
            </TermsTable>
          )}
        </>
      )}

      {tab === 'pairs' && (
        <>
          <p className="console-muted">
            <Trans>
              Fee rate 0.001 is 0.1 % of what a fill is worth; price band 0.1 lets a limit price stray at most 10 % from
              the latest recorded price.
            </Trans>
          </p>
          <ErrorLine error={pairsError} />
          {pairs && (
            <TermsTable head={[t`Pair`]} columns={pairColumns}>
              {pairs.map((pair) => (
                <TermsRow
                  key={pair.coin}
                  name={`${pair.coin}/USDT`}
                  head={[`${pair.coin}/USDT`]}
                  columns={pairColumns}
                  saved={pairTerms(savedPairs[pair.coin] ?? pair)}
                  takes={CONTRACT_PAIR_TAKES}
                  write={async (changes) => {
                    const now = await consoleApi(consoleChangeContractPair, { coin: pair.coin, ...changes });
                    setSavedPairs((saved) => ({ ...saved, [now.coin]: now }));
                    return pairTerms(now);
                  }}
                />
              ))}
            </TermsTable>
          )}
        </>
      )}
    </section>
  );
}

function TermsTable<T extends string>({
  head,
  columns,
  children,
}: {
  head: string[];
  columns: Column<T>[];
  children: ReactNode;
}) {
  return (
    <div className="console-table-wrap">
      <table className="console-table console-terms">
        <thead>
          <tr>
            {head.map((label) => (
              <th key={label}>{label}</th>
            ))}
            {columns.map((column) => (
              <th key={column.term}>{column.label}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One product's or pair's terms as fields, prefilled; Save sends the changed ones and shows the server's answer below
 * the row. */
function TermsRow<T extends string>({
  name,
  head,
  columns,
  saved,
  takes,
  write,
}: {
  name: string;
  head: string[];
  columns: Column<T>[];
  saved: Record<T, string>;
  takes: Record<T, TermTakes>;
  write: (changes: Partial<Record<T, string>>) => Promise<Record<T, string>>;
}) {
  const { t } = useLingui();
  const [values, setValues] = useState(saved);
  const [note, setNote] = useState<{ error: string } | { done: true } | null>(null);
  const { busy, once } = useSingleRun();
  // A term is changed when what it reads as differs from what is saved: "๐.๘๕" where 0.85 is saved is no change.
  const changed = columns
    .map((column) => column.term)
    .filter((term) => values[term] !== saved[term] && typedNumber(values[term]) !== saved[term]);
  const save = () =>
    once(async () => {
      try {
        // Said by field, in the operator's words, before anything is sent (the server's refusal is the command line's):
        // a number that reads two ways, then a value the term does not take.
        const sent = {} as Record<T, string>;
        for (const column of columns.filter((one) => changed.includes(one.term))) {
          const field = column.label;
          let said: string | null = null;
          try {
            sent[column.term] = sentNumber(values[column.term]);
            if (!takes[column.term](sent[column.term])) said = column.rule;
          } catch (failure) {
            said = messageOf(failure);
          }
          if (said !== null) throw new ConsoleError(t`${field}: ${said}`);
        }
        setValues(await write(sent));
        setNote({ done: true });
      } catch (failure) {
        setNote({ error: messageOf(failure) });
      }
    });
  const set = (term: T, value: string) => {
    setValues({ ...values, [term]: value });
    setNote(null);
  };
  return (
    <Fragment>
      <tr aria-label={name} className={note ? 'console-terms-noted' : ''}>
        {head.map((text, index) => (
          <td key={index}>{text}</td>
        ))}
        {columns.map((column) => (
          <td key={column.term}>
            {column.kind === 'flag' ? (
              <input
                type="checkbox"
                aria-label={column.label}
                checked={values[column.term] === 'true'}
                onChange={(event) => set(column.term, String(event.target.checked))}
              />
            ) : (
              <input
                aria-label={column.label}
                inputMode={column.kind}
                value={values[column.term]}
                className={values[column.term] !== saved[column.term] ? 'console-changed' : ''}
                onChange={(event) => set(column.term, event.target.value)}
                onKeyDown={(event) => event.key === 'Enter' && changed.length > 0 && void save()}
              />
            )}
          </td>
        ))}
        <td>
          <button
            type="button"
            className="primary small"
            disabled={busy || changed.length === 0}
            onClick={() => void save()}
            aria-label={t`Save ${name}`}
          >
            <Trans>Save</Trans>
          </button>
        </td>
      </tr>
      {note && (
        <tr className="console-terms-note">
          <td colSpan={head.length + columns.length + 1}>
            {'error' in note ? (
              <ErrorLine error={note.error} />
            ) : (
              <p className="console-saved" role="status">
                <Trans>Saved. Orders already placed keep their terms.</Trans>
              </p>
            )}
          </td>
        </tr>
      )}
    </Fragment>
  );
}
