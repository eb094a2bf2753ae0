// The script of trend.html (bundled by build-pages.mjs into dist/page-scripts/trend.js): its tables are HTML, so
// everything shows with JavaScript off; the script adds their text filters.
import { markReady } from './shared/dom.js';
import { startTableFilters } from './trend/filter.js';

startTableFilters();
markReady();
