// Sends one outbox entry other than marking messages read (lib/outbox.ts loads this module only when one waits, so
// the start carries one lazy import for all of them): a message to customer service (lib/chat-send.ts) or a price
// alert made or deleted offline (lib/price-alert-send.ts), each module loaded when its kind waits.
import type { OutboxEntry } from './outbox-store.ts';

export async function sendEntry(entry: Exclude<OutboxEntry, { kind: 'messages-read' }>): Promise<void> {
  if (entry.kind === 'chat-message') await (await import('./chat-send.ts')).sendChatEntry(entry);
  else await (await import('./price-alert-send.ts')).sendPriceAlertEntry(entry);
}
