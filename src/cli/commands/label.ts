import { isLoopback } from '../../local-server/hosts.js';
import { startLabelServer } from '../../label/server.js';
import { numberOption } from '../../util/numbers.js';
import { pathOption } from '../../util/path-option.js';
import { plural } from '../../util/text.js';
import { defineCommand } from '../command.js';
import { listenFailure, PORT } from '../listen.js';
import { openBrowser } from '../open-browser.js';
import { print, printError } from '../output.js';

/** The label page's port unless --port says otherwise (view's is 9840). */
const DEFAULT_PORT = 9841;

export const labelCommand = defineCommand({
  command: 'label <run>',
  describe: "label a run's unlabeled questions on a local page, one at a time, by keyboard: each decision is written into the question set",
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'a run directory (its report.json and journal) or a report.json' })
      .option('dataset', { alias: 'd', ...pathOption, describe: "the question set file to write the labels into (default: the run's, report.json run.dataset.path)" })
      .option('kb', { ...pathOption, describe: "a knowledge base (.jsonl or .csv) to search when the right answer is not in the list (default: the embedded engine's, for a run that used it)" })
      .option('wrong', { type: 'boolean', default: false, describe: 'also the questions the run judged wrong (wrong, abstained, fallback missed): their label may be the mistake' })
      .option('port', { ...numberOption('port', PORT), default: DEFAULT_PORT, describe: 'port (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on (another than loopback lets the network write into the set, with the token)' })
      .option('open', { type: 'boolean', default: true, describe: 'open the browser (only where there is a display; --no-open never does)' })
      .example('answer-eval label reports/2026-11-25', "the run's unlabeled questions, written into its question set, at http://127.0.0.1:9841/?token=...")
      .example('answer-eval label reports/2026-11-25 --wrong --kb kb.jsonl', 'also the wrong ones, with the knowledge base to search')
      .example('answer-eval label reports/x/report.json -d datasets/faq.csv --port 0 --no-open', 'the set named, any free port, the URL printed only')
      .epilogue(
        'Keys on the page: 1-9 the answer at that rank is right, R should be refused (expect = fallback), S skip, U undo, / search the knowledge base. ' +
          'Each decision is appended to SET.labels.jsonl, then written into the set (its expected_sequence or expected_label column, atomically, every other byte kept); ' +
          'a set changed on disk meanwhile is never overwritten. The URL holds a random token every request needs. Stop with Ctrl-C. See docs/labeling.md.',
      ),
  handler: async (argv) => {
    const server = await startLabelServer({
      run: argv.run,
      ...(argv.dataset !== undefined ? { dataset: argv.dataset } : {}),
      ...(argv.kb !== undefined ? { kb: argv.kb } : {}),
      wrong: argv.wrong,
      host: argv.host,
      port: argv.port,
    }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, argv.host, argv.port);
    });
    const state = await server.session.state(0);
    if (!isLoopback(argv.host)) printError(`answer-eval: warning: --host ${argv.host}: anyone who can reach this machine and has the URL can write into ${state.set.path}\n`);
    for (const note of state.notes) printError(`answer-eval: note: ${note}\n`);
    const opened = argv.open && openBrowser(server.url);
    print(
      `answer-eval label: ${plural(state.progress.todo, 'question')} to label, written into ${state.set.path} (log ${state.set.log})\n` +
        `at ${server.url}${opened ? ' (opened in the browser)' : ''}\nstop with Ctrl-C\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    const end = await server.session.state(0);
    print(`answer-eval label stopped: ${plural(end.progress.labeled, 'decision')} in force in ${end.set.log}, ${plural(end.progress.todo, 'question')} still to label\n`);
  },
});
