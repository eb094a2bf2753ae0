import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type SpawnedCli } from '../helpers/cli.js';

// `answer-eval serve` (the built CLI) holds dialogues like startEngine: two turns of a sample dialogue over HTTP.
let served: SpawnedCli | undefined;
afterAll(() => {
  served?.child.kill('SIGTERM');
});

async function urlOf(cli: SpawnedCli): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const url = /engine on (http:\/\/\S+)/.exec(cli.output().stdout)?.[1];
    if (url) return url;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`serve did not start: ${JSON.stringify(cli.output())}`);
}

describe('answer-eval serve', () => {
  it('answers a two-turn dialogue of the sample knowledge base, with the dialogue flags', async () => {
    served = spawnCli(['serve', '--port', '0', '--follow-up-floor', '45', '--session-minutes', '5'], { ANSWER_AGENT_CODE: 'serve-code' });
    const url = await urlOf(served);
    const turn = async (text: string) => {
      const res = await fetch(`${url}/api/v1/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', wikiclone_code: 'serve-code' },
        body: JSON.stringify({ wikiagent: 'demo', username: 'sam', question: { text }, force_subscription: '0', output: 'json', language: 'en' }),
      });
      const top = ((await res.json()) as { answers: Record<string, string>[] }).answers[0];
      return [top?.label, top?.is_dialog_in_progress, top?.is_dialogue_answer];
    };
    expect(await turn("I'm moving house next month")).toEqual(['moving_house', 'true', 'false']);
    expect(await turn('and when do I get the final bill?')).toEqual(['moving_final_bill', 'false', 'true']);
    served.child.kill('SIGTERM');
    const exit = await served.exited;
    expect(exit.stdout).toContain('engine stopped');
    served = undefined;
  });

  it('refuses a session bound that is not above 0', async () => {
    const cli = spawnCli(['serve', '--port', '0', '--session-minutes', '0']);
    const exit = await cli.exited;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe('answer-eval: --session-minutes must be a number > 0, got 0\n');
  });
});
