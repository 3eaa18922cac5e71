// @vitest-environment jsdom
// A radio group as one Tab stop (ui/radio-groups.ts, run for the whole document by ui/keyboard-focus.ts; the WAI-ARIA
// radio group pattern): only the checked radio (the first when none is) is reached with Tab; the arrow keys move
// through the group and check what they reach, wrapping at either end and following the reading direction in a
// right-to-left page; Home and End go to the first and last. The groups are plain markup, as the app's are.
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../../src/ui/keyboard-focus.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

/** Coins to choose from, with the clicks on each noted in `clicks`. */
function Coins({ coins, first = null, clicks = [] }: { coins: string[]; first?: string | null; clicks?: string[] }) {
  const [coin, setCoin] = useState(first);
  return (
    <>
      <button type="button">before</button>
      <div role="radiogroup" aria-label="Coin">
        {coins.map((item) => (
          <button
            key={item}
            type="button"
            role="radio"
            aria-checked={item === coin}
            disabled={item === 'OFF'}
            onClick={() => {
              clicks.push(item);
              setCoin(item);
            }}
          >
            {item}
          </button>
        ))}
      </div>
      <button type="button">after</button>
    </>
  );
}

/** Renders, then lets the module's watch of the document see the change (a microtask later). */
async function render(element: React.ReactNode): Promise<void> {
  act(() => view.root.render(element));
  await Promise.resolve();
}
const radios = () => [...view.container.querySelectorAll<HTMLElement>('[role="radio"]')];
/** Each radio's name with its tabIndex: which one Tab reaches. */
const tabStops = () => radios().map((radio) => `${radio.textContent}:${radio.tabIndex}`);
const checked = () => radios().find((radio) => radio.getAttribute('aria-checked') === 'true')?.textContent ?? null;
const focused = () => document.activeElement?.textContent;
const radio = (name: string) => radios().find((item) => item.textContent === name)!;

/**
 * Presses `key` on the focused element, then lets the watch of the document see what changed; true when the group
 * took the key over (the browser's own action cancelled).
 */
async function press(key: string, modifiers: KeyboardEventInit = {}): Promise<boolean> {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers });
  act(() => void document.activeElement!.dispatchEvent(event));
  await Promise.resolve();
  return event.defaultPrevented;
}

describe('a radio group', () => {
  it('is one Tab stop: the checked radio, or the first when none is checked', async () => {
    await render(<Coins coins={['BTC', 'ETH', 'SOL']} first="ETH" />);
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:0', 'SOL:-1']);

    await render(<Coins key="none" coins={['BTC', 'ETH', 'SOL']} />);
    expect(tabStops()).toEqual(['BTC:0', 'ETH:-1', 'SOL:-1']);
    // A click (the pointer's way) moves the stop with the check.
    act(() => radio('SOL').click());
    await Promise.resolve();
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:-1', 'SOL:0']);
  });

  it('keeps one stop as radios arrive (a list that loaded)', async () => {
    await render(<Coins coins={[]} />);
    await render(<Coins coins={['BTC', 'ETH']} />);
    expect(tabStops()).toEqual(['BTC:0', 'ETH:-1']);
  });

  it('moves and checks with Arrow Right and Down, back with Arrow Left and Up, wrapping at both ends', async () => {
    const clicks: string[] = [];
    await render(<Coins coins={['BTC', 'ETH', 'SOL']} first="BTC" clicks={clicks} />);
    radio('BTC').focus();
    expect(await press('ArrowRight')).toBe(true);
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    expect(await press('ArrowDown')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    await press('ArrowRight');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    expect(await press('ArrowLeft')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    expect(await press('ArrowUp')).toBe(true);
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    expect(tabStops()).toEqual(['BTC:-1', 'ETH:0', 'SOL:-1']);
    // Checking is a click on the radio, as a pointer would give.
    expect(clicks).toEqual(['ETH', 'SOL', 'BTC', 'SOL', 'ETH']);
  });

  it('goes to the first with Home and the last with End, and clicks no radio that is checked already', async () => {
    const clicks: string[] = [];
    await render(<Coins coins={['BTC', 'ETH', 'SOL']} first="ETH" clicks={clicks} />);
    radio('ETH').focus();
    expect(await press('End')).toBe(true);
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    expect(await press('Home')).toBe(true);
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    await press('Home');
    expect(clicks).toEqual(['SOL', 'BTC']);
  });

  it('follows the reading direction in a right-to-left page: Arrow Right goes to the previous, Left to the next', async () => {
    await render(
      <div dir="rtl">
        <Coins coins={['BTC', 'ETH', 'SOL']} first="BTC" />
      </div>,
    );
    radio('BTC').focus();
    await press('ArrowLeft');
    expect([focused(), checked()]).toEqual(['ETH', 'ETH']);
    await press('ArrowRight');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    await press('ArrowRight');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
    // Up and Down do not depend on the direction.
    await press('ArrowDown');
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
    await press('ArrowUp');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
  });

  it('passes over a disabled radio', async () => {
    await render(<Coins coins={['BTC', 'OFF', 'SOL']} first="BTC" />);
    radio('BTC').focus();
    await press('ArrowRight');
    expect([focused(), checked()]).toEqual(['SOL', 'SOL']);
  });

  it('leaves other keys, and arrows with Alt, Ctrl or Meta, to the browser', async () => {
    await render(<Coins coins={['BTC', 'ETH']} first="BTC" />);
    radio('BTC').focus();
    for (const key of ['Tab', ' ', 'Enter', 'a', 'PageDown']) expect(await press(key), key).toBe(false);
    expect(await press('ArrowRight', { altKey: true })).toBe(false);
    expect(await press('ArrowRight', { ctrlKey: true })).toBe(false);
    expect(await press('ArrowRight', { metaKey: true })).toBe(false);
    expect([focused(), checked()]).toEqual(['BTC', 'BTC']);
  });
});
