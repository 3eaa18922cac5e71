// A store that changes on its own (live prices: a step every second, a list that arrives) shown as a
// transition. valtio's useSnapshot re-renders through useSyncExternalStore, which React always renders
// in one blocking task: on Markets, a step re-rendered every row at once, 60–130 ms on a phone-speed
// CPU, every second. Here the re-render yields to the browser every few milliseconds, and a tap or a
// keystroke goes first. What a person types stays in local state or in useSnapshot: this is for
// values nobody is typing.
import { startTransition, useLayoutEffect, useState } from 'react';
import { createProxy, isChanged } from 'proxy-compare';
import { snapshot, subscribe, type Snapshot } from 'valtio/vanilla';

/**
 * valtio's useSnapshot, its re-renders as transitions: only a change of what the component read renders it.
 * `store`: a module's store, the same one on every render.
 */
export function useLiveSnapshot<T extends object>(store: T): Snapshot<T> {
  // What this component read of the snapshot (proxy-compare's record), to tell a change that matters.
  const [affected] = useState(() => new WeakMap<object, unknown>());
  const [proxyCache] = useState(() => new WeakMap<object, unknown>());
  const [current, setCurrent] = useState(() => snapshot(store));
  useLayoutEffect(() => {
    // One transition at a time: a store changing faster than a slow device renders (a test clock's steps
    // every 50 ms) would otherwise queue a render per change. The next one starts from this effect, run
    // again once the last has committed, with the newest snapshot.
    let asked = false;
    const check = () => {
      const next = snapshot(store);
      if (asked || next === current || !isChanged(current, next, affected, new WeakMap())) return;
      asked = true;
      startTransition(() => setCurrent(next));
    };
    // A change between this render and the subscription.
    check();
    return subscribe(store, check);
  }, [store, current, affected]);
  return createProxy(current, affected, proxyCache) as Snapshot<T>;
}
