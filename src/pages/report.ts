// The script of report.html (bundled by build-pages.mjs into dist/page-scripts/report.js).
import { startReport } from './report/page.js';

startReport();
