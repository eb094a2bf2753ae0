// The answer-eval command lines of a CI file (GitHub Actions, GitLab CI, a Kubernetes manifest), as the argv the CLI
// gets: YAML read by a YAML parser (folded and continued lines joined), placeholders given plausible values, shell
// words split as sh splits them.
import { parseAllDocuments } from 'yaml';

/** One answer-eval command line of a file: where it is and the arguments after `answer-eval`. */
export interface CommandLine {
  /** Where: the YAML path of the entry, e.g. `jobs.eval.steps[4].run`. */
  at: string;
  argv: string[];
}

/** Plausible values of the placeholders the examples use; a placeholder not listed here fails the test. */
export const PLACEHOLDERS: Record<string, string> = {
  // GitHub Actions expressions, ${{ ... }}
  'matrix.shard': '2',
  'vars.ANSWER_URL': 'https://answers.example.com',
  'vars.ANSWER_AGENT': 'support',
  'secrets.ANSWER_AGENT_CODE': 'not-a-real-code',
  'github.run_id': '1234',
  // environment variables, $VAR, ${VAR} and Kubernetes' $(VAR)
  ANSWER_URL: 'https://answers.example.com',
  ANSWER_AGENT: 'support',
  CI_NODE_INDEX: '2',
  CI_NODE_TOTAL: '4',
  GITHUB_STEP_SUMMARY: '/tmp/summary.md',
  JOB_COMPLETION_INDEX: '1',
};

/** `text` with every placeholder replaced; throws naming one it has no value for. */
export function substitute(text: string): string {
  const value = (name: string): string => {
    const v = PLACEHOLDERS[name.trim()];
    if (v === undefined) throw new Error(`no plausible value for the placeholder ${name.trim()} (add one to PLACEHOLDERS)`);
    return v;
  };
  return text
    .replace(/\$\{\{([^}]*)\}\}/g, (_, name: string) => value(name))
    .replace(/\$\{(\w+)\}|\$\((\w+)\)|\$(\w+)/g, (_, a?: string, b?: string, c?: string) => value((a ?? b ?? c)!));
}

const OPERATORS = new Set(['&&', '||', ';', '|', '&']);

/** A shell command line split into words (quotes and backslashes as sh reads them) and operators; redirections dropped. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  const push = () => {
    if (word !== undefined) out.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) text += line[j] === '\\' && /["\\$`]/.test(line[j + 1] ?? '') ? line[++j] : line[j];
      if (j >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(c)) {
      push();
    } else if (/[&|;]/.test(c)) {
      push();
      const two = line.slice(i, i + 2);
      out.push(OPERATORS.has(two) ? two : c);
      if (OPERATORS.has(two)) i++;
    } else if (c === '#' && word === undefined) {
      break; // a comment
    } else {
      word = (word ?? '') + c;
    }
  }
  push();
  // a redirection (`>> file`, `2>/dev/null`) is no argument
  return out.filter((w, i) => !/^\d*[<>]/.test(w) && !/^\d*[<>]{1,2}$/.test(out[i - 1] ?? ''));
}

/** The answer-eval commands of a shell script: each `npx answer-eval ...` between operators or on its own line. */
export function answerEvalCommands(script: string): string[][] {
  const words = script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /\bnpx\s+answer-eval\s/.test(line))
    .flatMap((line) => [...shellWords(substitute(line)), ';']);
  const commands: string[][] = [];
  let current: string[] = [];
  for (const w of words) {
    if (OPERATORS.has(w)) {
      if (current[0] === 'npx' && current[1] === 'answer-eval') commands.push(current.slice(2));
      current = [];
    } else current.push(w);
  }
  return commands;
}

type Node = unknown;

/** Every answer-eval command line of a CI file: `run:` steps, `script:` entries, a container's `command` + `args`. */
export function commandLinesOf(yamlText: string): CommandLine[] {
  const found: CommandLine[] = [];
  const visit = (node: Node, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${at}[${i}]`));
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const key of ['run', 'script', 'before_script', 'after_script']) {
      const scripts = typeof o[key] === 'string' ? [o[key]] : Array.isArray(o[key]) && o[key].every((s) => typeof s === 'string') ? o[key] : [];
      (scripts as string[]).forEach((script, i) => {
        for (const argv of answerEvalCommands(script)) found.push({ at: `${at}.${key}${Array.isArray(o[key]) ? `[${i}]` : ''}`, argv });
      });
    }
    if (Array.isArray(o['command']) && Array.isArray(o['args'])) {
      const command = (o['command'] as unknown[]).map(String);
      if (command.join(' ').replace(/^npx /, '') === 'answer-eval') found.push({ at: `${at}.args`, argv: (o['args'] as unknown[]).map((a) => substitute(String(a))) });
    }
    for (const [key, value] of Object.entries(o)) visit(value, at === '' ? key : `${at}.${key}`);
  };
  for (const doc of parseAllDocuments(yamlText)) {
    if (doc.errors.length > 0) throw new Error(`not valid YAML: ${doc.errors[0]!.message}`);
    visit(doc.toJS(), '');
  }
  return found;
}
