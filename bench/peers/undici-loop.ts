// A peer for (a): the bare undici request loop answer-eval is built on, same request, same concurrency,
// doing nothing with the answers but JSON.parse. Prints requests per second.
//   node undici-loop.js URL CONCURRENCY SECONDS BODY AGENT_CODE
import { Agent, request } from 'undici';

const [url, concurrency, seconds, body, agentCode] = process.argv.slice(2) as [string, string, string, string, string];
const dispatcher = new Agent({ connections: Number(concurrency), keepAliveTimeout: 30_000 });
const headers = { 'content-type': 'application/json; charset=UTF-8', wikiclone_code: agentCode };
const until = performance.now() + Number(seconds) * 1000;
let done = 0;
async function worker(): Promise<void> {
  while (performance.now() < until) {
    const res = await request(url, { method: 'POST', body, headers, dispatcher });
    JSON.parse(await res.body.text());
    done++;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
process.stdout.write(`${done / ((performance.now() - started) / 1000)}\n`);
await dispatcher.close();
