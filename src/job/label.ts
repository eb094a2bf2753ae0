import { startLabelServer } from '../label/server.js';
import { isLoopback } from '../local-server/hosts.js';
import { plural } from '../util/text.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { LABEL_PORT, listenFailure } from './listen.js';
import { openBrowser } from './open-browser.js';
import { untilStopped } from './signals.js';

export interface LabelOptions {
  /** A run directory (its report.json and journal) or a report.json. */
  run: string;
  /** The question set to write the labels into. @default the run's (report.json run.dataset.path) */
  dataset?: string | undefined;
  /** A knowledge base to search when the right answer is not in the list. @default the embedded engine's, for a run that used it */
  kb?: string | undefined;
  /** Also the questions the run judged wrong. @default false */
  wrong?: boolean | undefined;
  /** @default 9841 (0: any free port) */
  port?: number | undefined;
  /** @default '127.0.0.1' */
  host?: string | undefined;
  /** Open the browser, where there is a display. @default true */
  open?: boolean | undefined;
}

/** `answer-eval label`: a run's unlabeled questions labeled on a local page into its question set, until SIGINT/SIGTERM (or the io's signal). */
export const label = (o: LabelOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print, printError } = ctx.out;
    const host = o.host ?? '127.0.0.1';
    const port = o.port ?? LABEL_PORT;
    const server = await startLabelServer({
      run: o.run,
      ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      ...(o.kb !== undefined ? { kb: o.kb } : {}),
      wrong: o.wrong ?? false,
      host,
      port,
    }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, host, port);
    });
    const state = await server.session.state(0);
    if (!isLoopback(host)) printError(`answer-eval: warning: --host ${host}: anyone who can reach this machine and has the URL can write into ${state.set.path}\n`);
    for (const note of state.notes) printError(`answer-eval: note: ${note}\n`);
    const opened = (o.open ?? true) && openBrowser(server.url, ctx.io.env);
    print(
      `answer-eval label: ${plural(state.progress.todo, 'question')} to label, written into ${state.set.path} (log ${state.set.log})\n` +
        `at ${server.url}${opened ? ' (opened in the browser)' : ''}\nstop with Ctrl-C\n`,
    );
    await untilStopped(ctx);
    await server.close();
    const end = await server.session.state(0);
    print(`answer-eval label stopped: ${plural(end.progress.labeled, 'decision')} in force in ${end.set.log}, ${plural(end.progress.todo, 'question')} still to label\n`);
  });
