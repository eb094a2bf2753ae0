import { withPageData } from '../shared/data.js';
import { byId, markReady } from '../shared/dom.js';
import type { PageData } from './data.js';
import { startEntries } from './entries.js';
import { startQuestions } from './questions.js';
import { pageView, type PageView } from './view.js';

/**
 * report.html: the entry table at once (it is HTML), then, once the page data is unpacked, the question table and
 * the parts given (the conversations' threads), all from the same data.
 */
export function startReport(parts: readonly ((view: PageView) => void)[] = []): void {
  startEntries();
  withPageData<PageData>(byId('table-status'), 'Loading questions…', 'report', (data) => {
    const view = pageView(data);
    startQuestions(view);
    for (const start of parts) start(view);
    markReady();
  });
}
