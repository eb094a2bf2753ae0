#!/usr/bin/env node
// The answer-eval command. `--version` is answered before anything else loads; every other command line goes to
// main() (src/cli/cli.ts), which loads only the command it runs. This is the one file that touches the process.
import './heap.js';
import { TOOL_VERSION } from '../version.js';
import { processIo } from './process-io.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version')) {
  process.stdout.write(`${TOOL_VERSION}\n`);
} else {
  const { main } = await import('./cli.js');
  process.exitCode = await main(argv, processIo());
}
