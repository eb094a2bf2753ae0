import { parseLatency, SAMPLE_KB, startEngine, type FaultOptions } from '../engine/index.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { listenFailure } from './listen.js';
import { untilStopped } from './signals.js';

export interface ServeOptions {
  /** The knowledge base, .jsonl or .csv. @default the sample knowledge base */
  kb?: string | undefined;
  /** @default 8080 (0: any free port) */
  port?: number | undefined;
  /** @default '127.0.0.1' */
  host?: string | undefined;
  /** The agent id expected in "wikiagent"; the code comes from ANSWER_AGENT_CODE, or is generated and printed. @default 'demo' */
  agent?: string | undefined;
  /** Added latency in ms: fixed "50" or median,p99 "50,200". */
  latency?: string | undefined;
  errorRate?: number | undefined;
  malformedRate?: number | undefined;
  resetRate?: number | undefined;
  throttleRate?: number | undefined;
  oversizeRate?: number | undefined;
  /** The seed of the fault decisions. @default 1 */
  seed?: number | undefined;
  floor?: number | undefined;
  followUpFloor?: number | undefined;
  sessionMinutes?: number | undefined;
}

/** `answer-eval serve`: the embedded reference Answer Service, until SIGINT/SIGTERM (or the io's signal). */
export const serve = (o: ServeOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print } = ctx.out;
    const faults: FaultOptions = {
      ...(o.latency !== undefined && { latency: parseLatency(o.latency) }),
      errorRate: o.errorRate ?? 0,
      malformedRate: o.malformedRate ?? 0,
      resetRate: o.resetRate ?? 0,
      throttleRate: o.throttleRate ?? 0,
      oversizeRate: o.oversizeRate ?? 0,
    };
    const kb = o.kb ?? SAMPLE_KB;
    const host = o.host ?? '127.0.0.1';
    const port = o.port ?? 8080;
    const given = ctx.io.env['ANSWER_AGENT_CODE'];
    const engine = await startEngine({
      kb,
      host,
      port,
      agent: o.agent ?? 'demo',
      ...(given && { code: given }),
      faults,
      seed: o.seed ?? 1,
      ...(o.floor !== undefined && { floorThreshold: o.floor }),
      ...(o.followUpFloor !== undefined && { followUpThreshold: o.followUpFloor }),
      ...(o.sessionMinutes !== undefined && { sessions: { idleMs: o.sessionMinutes * 60_000 } }),
    }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, host, port);
    });
    // The code is printed once, only when generated here; a code from the environment is never echoed.
    print(
      `answer-eval engine on ${engine.url} (agent "${engine.agent}", knowledge base ${kb})\n` +
        (given ? '' : `generated agent code:\n  export ANSWER_AGENT_CODE=${engine.code}\n`) +
        `try:\n  curl -s ${engine.url}/api/v1/answer -H 'Content-Type: application/json' -H "wikiclone_code: $ANSWER_AGENT_CODE" \\\n` +
        `    -d '{"wikiagent":"${engine.agent}","guest":"1","question":{"text":"how can I pay my bill?"},"force_subscription":"0","output":"json","language":"en"}'\n` +
        'stop with Ctrl-C\n',
    );
    await untilStopped(ctx);
    await engine.close();
    print('engine stopped\n');
  });
