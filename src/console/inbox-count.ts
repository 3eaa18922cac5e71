// How many customer service conversations wait for an answer, as the last queues call said: the
// queues and inbox pages write it when they poll, the navigation shows it. No polling of its own, so
// a page that polls nothing lets an unattended session run out.
import { proxy } from 'valtio';

export const inboxCount = proxy({ waiting: null as number | null });
