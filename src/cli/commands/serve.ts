import type { CommandModule } from 'yargs';
import { parseLatency, SAMPLE_KB, startEngine, type FaultOptions } from '../../engine/index.js';
import { ABOVE_0, numberOption, SCORE, SHARE, WHOLE } from '../../util/numbers.js';
import { print } from '../../job/output.js';
import { listenFailure, PORT } from '../listen.js';
import { pathOption } from '../../util/path-option.js';
import { untilStopped } from '../signals.js';
import { jobIo } from '../../job/io.js';

interface ServeArgs {
  kb: string;
  port: number;
  host: string;
  agent: string;
  latency?: string;
  'error-rate': number;
  'malformed-rate': number;
  'reset-rate': number;
  'throttle-rate': number;
  'oversize-rate': number;
  seed: number;
  floor?: number;
  'follow-up-floor'?: number;
  'session-minutes'?: number;
}

/** `answer-eval serve`: the reference Answer Service until SIGINT/SIGTERM. */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'run the embedded reference Answer Service on a knowledge base',
  builder: (y) =>
    y
      .option('kb', { ...pathOption, default: SAMPLE_KB, defaultDescription: 'datasets/sample/kb.jsonl', describe: 'knowledge base (.jsonl or .csv)' })
      .option('port', { ...numberOption('port', PORT), default: 8080, describe: 'port (0 = any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
      .option('agent', { type: 'string', default: 'demo', describe: 'agent id expected in "wikiagent"; the code comes from ANSWER_AGENT_CODE' })
      .option('latency', { type: 'string', describe: 'added latency in ms: fixed "50" or median,p99 "50,200"' })
      .option('error-rate', { ...numberOption('error-rate', SHARE), default: 0, describe: 'share of 500/502/503 replies (0-1)' })
      .option('malformed-rate', { ...numberOption('malformed-rate', SHARE), default: 0, describe: 'share of 200 replies whose body is not JSON' })
      .option('reset-rate', { ...numberOption('reset-rate', SHARE), default: 0, describe: 'share of connections dropped without a reply' })
      .option('throttle-rate', { ...numberOption('throttle-rate', SHARE), default: 0, describe: 'share of 429 replies with Retry-After' })
      .option('oversize-rate', { ...numberOption('oversize-rate', SHARE), default: 0, describe: 'share of 200 replies with a body of several MiB' })
      .option('seed', { ...numberOption('seed', WHOLE), default: 1, describe: 'seed of the fault decisions' })
      .option('floor', { ...numberOption('floor', SCORE), describe: 'floor threshold on the 0-100 score scale' })
      .option('follow-up-floor', { ...numberOption('follow-up-floor', SCORE), describe: 'inside a dialogue, the score a follow-up needs to be understood (0-100)' })
      .option('session-minutes', { ...numberOption('session-minutes', ABOVE_0), describe: "minutes of silence after which a user's dialogue and repeat memory are forgotten (default 30)" })
      .example('answer-eval serve', 'the sample knowledge base on http://127.0.0.1:8080, with a generated agent code')
      .example('ANSWER_AGENT_CODE=local answer-eval serve --kb my-kb.jsonl --port 8080', 'try a knowledge-base change before it goes live')
      .example('answer-eval serve --error-rate 0.05 --latency 50,200', 'a slow, failing service, to see how a CI job copes'),
  handler: async (args) => {
    const faults: FaultOptions = {
      ...(args.latency !== undefined && { latency: parseLatency(args.latency) }),
      errorRate: args['error-rate'],
      malformedRate: args['malformed-rate'],
      resetRate: args['reset-rate'],
      throttleRate: args['throttle-rate'],
      oversizeRate: args['oversize-rate'],
    };
    const minutes = args['session-minutes'];
    const given = jobIo().env['ANSWER_AGENT_CODE'];
    const engine = await startEngine({
      kb: args.kb,
      host: args.host,
      port: args.port,
      agent: args.agent,
      ...(given && { code: given }),
      faults,
      seed: args.seed,
      ...(args.floor !== undefined && { floorThreshold: args.floor }),
      ...(args['follow-up-floor'] !== undefined && { followUpThreshold: args['follow-up-floor'] }),
      ...(minutes !== undefined && { sessions: { idleMs: minutes * 60_000 } }),
    }).catch((error: NodeJS.ErrnoException) => {
      throw listenFailure(error, args.host, args.port);
    });
    // The code is printed once, only when generated here; a code from the environment is never echoed.
    print(
      `answer-eval engine on ${engine.url} (agent "${engine.agent}", knowledge base ${args.kb})\n` +
        (given ? '' : `generated agent code:\n  export ANSWER_AGENT_CODE=${engine.code}\n`) +
        `try:\n  curl -s ${engine.url}/api/v1/answer -H 'Content-Type: application/json' -H "wikiclone_code: $ANSWER_AGENT_CODE" \\\n` +
        `    -d '{"wikiagent":"${engine.agent}","guest":"1","question":{"text":"how can I pay my bill?"},"force_subscription":"0","output":"json","language":"en"}'\n` +
        'stop with Ctrl-C\n',
    );
    await untilStopped();
    await engine.close();
    print('engine stopped\n');
  },
};
