// Unit tests run on Node, or in jsdom where a file asks for it (its first line), with an in-memory IndexedDB and the
// English catalog.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';

i18n.loadAndActivate({ locale: 'en', messages: {} });
