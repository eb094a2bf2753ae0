import { defineCommand } from '../command.js';
import { SAMPLE_KB } from '../../engine/samples.js';
import { ABOVE_0, numberOption, SCORE, SHARE, WHOLE } from '../../util/numbers.js';
import { PORT } from '../../job/listen.js';
import { pathOption } from '../../util/path-option.js';

/** `answer-eval serve`: the reference Answer Service until SIGINT/SIGTERM. */
export const serveCommand = defineCommand({
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
  handler: async (argv, io) => (await import('../../job/serve.js')).serve(argv, io),
});
