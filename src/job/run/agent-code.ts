import { readBounded, UnreadableFile } from '../../util/bounded-read.js';
import { checkAgentCode } from '../../client/agent-code.js';
import { ConfigError } from '../../errors.js';
import { readFailureMessage } from '../../util/read-failure.js';

/** The agent's secret code from --agent-code-file or ANSWER_AGENT_CODE, checked to be a header value; never echoed back. */
export async function readAgentCode(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (file !== undefined) {
    let text: string;
    try {
      // a code is a header value: a few dozen characters; a device or a pipe that never ends is cut short
      text = (await readBounded(file, { maxBytes: 64 * 1024, text: true })).toString('utf8');
    } catch (error) {
      if (error instanceof UnreadableFile) throw new ConfigError(`--agent-code-file ${file}: ${error.message} (expected a file holding the agent's secret code)`, { cause: error });
      throw new ConfigError(`--agent-code-file ${file}: ${readFailureMessage(error, "a file holding the agent's secret code") ?? 'cannot be read'}`, { cause: error });
    }
    const code = text.trim();
    if (code === '') throw new ConfigError(`--agent-code-file ${file} is empty (expected the agent's secret code)`);
    checkAgentCode(code, `--agent-code-file ${file}`);
    return code;
  }
  const code = env['ANSWER_AGENT_CODE']?.trim();
  if (code === '' || code === undefined) return undefined;
  checkAgentCode(code, 'ANSWER_AGENT_CODE');
  return code;
}
