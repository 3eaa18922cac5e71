// The push screens name their texts by id (lib/push.ts), declared in their own area
// (features/notifications/push-texts.ts): every id shown must be declared, or a screen shows an id.
import { expect, it } from 'vitest';
import { NOTICE_KINDS } from '../../src/api-contract/notifications.ts';
import { PUSH_TEXT, pushKindText } from '../../src/lib/push.ts';
import { PUSH_TEXTS } from '../../src/features/notifications/push-texts.ts';

it('declares every text the push screens show, and nothing they do not', () => {
  const shown = [...Object.values(PUSH_TEXT), ...NOTICE_KINDS.map(pushKindText)].sort();
  expect(
    Object.values(PUSH_TEXTS)
      .map((text) => text.id)
      .sort(),
  ).toEqual(shown);
});
