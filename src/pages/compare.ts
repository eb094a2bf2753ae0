// The script of compare.html (bundled by build-pages.mjs into dist/page-scripts/compare.js).
import { startCompare } from './compare/page.js';

startCompare();
