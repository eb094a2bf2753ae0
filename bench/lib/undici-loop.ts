import { runProcess } from './proc.js';
import { AGENT_CODE, UNDICI_LOOP } from '../paths.js';

/** One request body of the spec, the peers' only question. */
export const PEER_BODY = JSON.stringify({ wikiagent: 'bench', guest: '1', question: { text: 'How do I pay my bill? (1)' }, force_subscription: '0', output: 'json', language: 'en' });

/** The bare undici request loop (peers/undici-loop.ts) against `url` for `seconds`: its requests a second. */
export async function undiciLoop(url: string, concurrency: number, seconds: number): Promise<number> {
  const res = await runProcess(process.execPath, [UNDICI_LOOP, `${url}/api/v1/answer`, String(concurrency), String(seconds), PEER_BODY, AGENT_CODE]);
  if (res.code !== 0) throw new Error(`undici loop failed (${res.code}): ${res.stderr}`);
  return Number(res.stdout.trim());
}
