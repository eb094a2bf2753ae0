import { withPageData } from '../shared/data.js';
import { byId, markReady } from '../shared/dom.js';
import { startChanges } from './changes.js';
import type { PageData } from './data.js';
import { compareView } from './view.js';

/** compare.html: once the page data is unpacked, the table of changes. */
export function startCompare(): void {
  withPageData<PageData>(byId('changes-status'), 'Loading changes…', 'page', (data) => {
    startChanges(compareView(data));
    markReady();
  });
}
