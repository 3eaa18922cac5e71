// A refusal answers in the asker's language: it carries a text id of the catalogs, never an English
// sentence (which would reach the Chinese and Thai console as written).
import { describe, expect, it } from 'vitest';
import { Refusal, refusalOf } from '../../src/server/domain/refusal.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { consoleTexts } from '../../src/api-contract/console-texts.ts';
import { translator } from '../../src/server/i18n.ts';

describe('Refusal', () => {
  it('takes a text id, with the values of its placeholders', () => {
    const refusal = new Refusal(consoleTexts.consoleRechargeReviewed.id, { id: '7', status: 'success' });
    expect(refusal.textId).toBe('e.consoleRechargeReviewed');
    expect(translator('en')(refusal.textId, refusal.values)).toBe('Recharge 7 was already reviewed (success).');
    expect(translator('zh')(refusal.textId, refusal.values)).not.toBe('Recharge 7 was already reviewed (success).');
  });

  it('throws on an English sentence, or any id no catalog holds', () => {
    // @ts-expect-error: the type takes only the ids of the texts.
    expect(() => new Refusal('Recharge 7 was already reviewed (success).')).toThrow(/text id/);
    // @ts-expect-error: as above.
    expect(() => new Refusal('e.noSuchText')).toThrow(/text id/);
    expect(() => refusalOf({ id: 'No recharge 7.' })).toThrow(/text id/);
    expect(refusalOf(texts.insufficientBalance)).toBeInstanceOf(Refusal);
  });
});
