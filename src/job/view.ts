import { stat } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { plural } from '../util/text.js';
import { findRuns } from '../view/find.js';
import { isLoopback } from '../local-server/hosts.js';
import { startViewer } from '../view/server.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { listenFailure, VIEW_PORT } from './listen.js';
import { openBrowser } from './open-browser.js';
import { untilStopped } from './signals.js';

export interface ViewOptions {
  /** The reports directory: runs are found in it and below it. @default 'reports' */
  dir?: string | undefined;
  /** @default 9840 (0: any free port) */
  port?: number | undefined;
  /** @default '127.0.0.1' */
  host?: string | undefined;
  /** Open the browser, where there is a display. @default true */
  open?: boolean | undefined;
}

/** `answer-eval view`: a reports directory on a local web page, read-only, until SIGINT/SIGTERM (or the io's signal). */
export const view = (o: ViewOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print, printError } = ctx.out;
    const dir = o.dir ?? 'reports';
    const host = o.host ?? '127.0.0.1';
    const port = o.port ?? VIEW_PORT;
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new ConfigError(`${dir}: ${info ? 'not a directory' : 'no such directory'} (answer-eval view DIR serves a reports directory, default reports/)`);
    const viewer = await startViewer({ root: dir, host, port, name: dir }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, host, port);
    });
    const found = await findRuns(dir);
    if (!isLoopback(host)) printError(`answer-eval: warning: --host ${host}: the reports are served to every machine that can reach this one\n`);
    const opened = (o.open ?? true) && openBrowser(viewer.url, ctx.io.env);
    print(`answer-eval view: ${plural(found.runs.length, 'run')} under ${dir} at ${viewer.url}${opened ? ' (opened in the browser)' : ''}\nstop with Ctrl-C\n`);
    await untilStopped(ctx);
    await viewer.close();
    print('answer-eval view stopped\n');
  });
