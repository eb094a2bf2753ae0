import { stat } from 'node:fs/promises';
import { ConfigError } from '../../errors.js';
import { numberOption } from '../../util/numbers.js';
import { pathOption } from '../../util/path-option.js';
import { plural } from '../../util/text.js';
import { findRuns } from '../../view/find.js';
import { isLoopback } from '../../local-server/hosts.js';
import { startViewer } from '../../view/server.js';
import { defineCommand } from '../command.js';
import { listenFailure, PORT } from '../listen.js';
import { openBrowser } from '../open-browser.js';
import { print, printError } from '../output.js';

/** The viewer's port unless --port says otherwise. */
const DEFAULT_PORT = 9840;

export const viewCommand = defineCommand({
  command: 'view [dir]',
  describe: 'serve a reports directory on a local web page: every run with its figures and verdict, newest first, and its report, compare and trend pages',
  builder: (y) =>
    y
      .positional('dir', { ...pathOption, default: 'reports', describe: 'the reports directory: runs are found in it and below it' })
      .option('port', { ...numberOption('port', PORT), default: DEFAULT_PORT, describe: 'port (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on (another than loopback serves the reports to the network)' })
      .option('open', { type: 'boolean', default: true, describe: 'open the browser (only where there is a display; --no-open never does)' })
      .example('answer-eval view', 'the runs under reports/, at http://127.0.0.1:9840/, in the browser')
      .example('answer-eval view reports/nightly --port 0 --no-open', 'any free port, the URL printed only')
      .epilogue('Read-only: GET and HEAD, only files under DIR (no hidden file, no link out of it), each page in a sandbox. The index is built again at each visit. Stop with Ctrl-C.'),
  handler: async (argv) => {
    const dir = argv.dir;
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new ConfigError(`${dir}: ${info ? 'not a directory' : 'no such directory'} (answer-eval view DIR serves a reports directory, default reports/)`);
    const viewer = await startViewer({ root: dir, host: argv.host, port: argv.port, name: dir }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, argv.host, argv.port);
    });
    const found = await findRuns(dir);
    if (!isLoopback(argv.host)) printError(`answer-eval: warning: --host ${argv.host}: the reports are served to every machine that can reach this one\n`);
    const opened = argv.open && openBrowser(viewer.url);
    print(`answer-eval view: ${plural(found.runs.length, 'run')} under ${dir} at ${viewer.url}${opened ? ' (opened in the browser)' : ''}\nstop with Ctrl-C\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await viewer.close();
    print('answer-eval view stopped\n');
  },
});
