// Unit tests run in jsdom with an in-memory IndexedDB and the English catalog.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';

i18n.loadAndActivate({ locale: 'en', messages: {} });
