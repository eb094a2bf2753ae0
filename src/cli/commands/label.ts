import { LABEL_PORT, PORT } from '../../job/listen.js';
import { numberOption } from '../../util/numbers.js';
import { pathOption } from '../../util/path-option.js';
import { defineCommand } from '../command.js';

export const labelCommand = defineCommand({
  command: 'label <run>',
  describe: "label a run's unlabeled questions on a local page, one at a time, by keyboard: each decision is written into the question set",
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'a run directory (its report.json and journal) or a report.json' })
      .option('dataset', { alias: 'd', ...pathOption, describe: "the question set file to write the labels into (default: the run's, report.json run.dataset.path)" })
      .option('kb', { ...pathOption, describe: "a knowledge base (.jsonl or .csv) to search when the right answer is not in the list (default: the embedded engine's, for a run that used it)" })
      .option('wrong', { type: 'boolean', default: false, describe: 'also the questions the run judged wrong (wrong, abstained, fallback missed): their label may be the mistake' })
      .option('port', { ...numberOption('port', PORT), default: LABEL_PORT, describe: 'port (0: any free port)' })
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
  handler: async (argv, io) => (await import('../../job/label.js')).label(argv, io),
});
