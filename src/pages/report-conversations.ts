// The script of report.html for a run with conversations: the report's, and the threads of its conversations.
import { startReport } from './report/page.js';
import { startThreads } from './report/threads.js';

startReport([startThreads]);
