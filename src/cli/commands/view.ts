import { numberOption } from '../../util/numbers.js';
import { pathOption } from '../../util/path-option.js';
import { defineCommand } from '../command.js';
import { PORT, VIEW_PORT } from '../../job/listen.js';

export const viewCommand = defineCommand({
  command: 'view [dir]',
  describe: 'serve a reports directory on a local web page: every run with its figures and verdict, newest first, and its report, compare and trend pages',
  builder: (y) =>
    y
      .positional('dir', { ...pathOption, default: 'reports', describe: 'the reports directory: runs are found in it and below it' })
      .option('port', { ...numberOption('port', PORT), default: VIEW_PORT, describe: 'port (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on (another than loopback serves the reports to the network)' })
      .option('open', { type: 'boolean', default: true, describe: 'open the browser (only where there is a display; --no-open never does)' })
      .example('answer-eval view', 'the runs under reports/, at http://127.0.0.1:9840/, in the browser')
      .example('answer-eval view reports/nightly --port 0 --no-open', 'any free port, the URL printed only')
      .epilogue('Read-only: GET and HEAD, only files under DIR (no hidden file, no link out of it), each page in a sandbox. The index is built again at each visit. Stop with Ctrl-C.'),
  handler: async (argv, io) => (await import('../../job/view.js')).view(argv, io),
});
