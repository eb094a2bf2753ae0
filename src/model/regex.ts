import { RE2JS, RE2Set } from 're2js';
import { classText, complement, DIGITS, hex, LINE_TERMINATORS, propertySet, SPACES, WORD, WORD_FOLDED, type Range } from './code-points.js';
import { cut } from './quote.js';

/**
 * `re:` expectations are JavaScript regular expressions (flags `iu`) run by RE2 (re2js), whose matching time is linear
 * in the text: no pattern can hang a run, whatever the answer it meets. A pattern is checked by JavaScript first (its
 * syntax errors are JavaScript's), then translated construct by construct into RE2's syntax with JavaScript's meaning:
 * character classes become explicit code point ranges (`\s`, `\w`, `\p{…}` as JavaScript defines them), `.` excludes
 * the four line terminators, `^`/`$` anchor the whole text. Both engines fold case the same way (simple case folding:
 * a character matches when one of its case variants is in the set), so the translation agrees with JavaScript on
 * every text. What needs backtracking (backreferences, lookaround) cannot be translated: a RegexProblem says why and
 * what to write instead.
 */
export class RegexProblem extends Error {
  override name = 'RegexProblem';
}

const literal = (cp: number): string => (/[0-9A-Za-z]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp));

const WHY = 'answer-eval runs regular expressions in linear time (RE2), so that no pattern can hang a run';

/** Flags of the translation in force: JavaScript's `i`, `m`, `s` (changed by a modifier group `(?i:…)` where Node has them). */
interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

class Translator {
  private at = 0;
  constructor(private readonly src: string) {}

  translate(): string {
    const out = this.disjunction({ i: true, m: false, s: false });
    return out;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.at + offset];
  }

  private startsWith(text: string): boolean {
    return this.src.startsWith(text, this.at);
  }

  /** Terms up to the `)` that ends the group (left for the caller) or the end. */
  private disjunction(flags: Flags): string {
    let out = '';
    while (this.at < this.src.length && this.peek() !== ')') {
      const c = this.peek()!;
      if (c === '|') {
        this.at++;
        out += '|';
      } else if (c === '^') {
        this.at++;
        out += flags.m ? '(?m:^)' : '\\A';
      } else if (c === '$') {
        this.at++;
        out += flags.m ? '(?m:$)' : '\\z';
      } else if (c === '(') out += this.group(flags);
      else if (c === '[') out += this.characterClass(flags);
      else if (c === '.') {
        this.at++;
        out += classText(flags.s ? [] : LINE_TERMINATORS, [], true, flags.i);
      } else if (c === '*' || c === '+' || c === '?') {
        this.at++;
        out += c;
      } else if (c === '{') {
        const end = this.src.indexOf('}', this.at);
        out += this.src.slice(this.at, end + 1); // a quantifier: JavaScript's `u` mode allows no other brace
        this.at = end + 1;
      } else if (c === '\\') out += this.atomEscape(flags);
      else {
        const cp = this.src.codePointAt(this.at)!;
        this.at += cp > 0xffff ? 2 : 1;
        out += literal(cp);
      }
    }
    return out;
  }

  private group(flags: Flags): string {
    this.at++; // (
    let open = '(';
    let inner = flags;
    if (this.startsWith('?=') || this.startsWith('?!')) {
      throw new RegexProblem(`it uses a lookahead (${this.src.slice(this.at - 1, this.at + 2)}...), and ${WHY}; match the text itself instead (re:pay(ment)? rather than re:pay(?=ment))`);
    }
    if (this.startsWith('?<=') || this.startsWith('?<!')) {
      throw new RegexProblem(`it uses a lookbehind (${this.src.slice(this.at - 1, this.at + 3)}...), and ${WHY}; match the text itself instead (re:card payment rather than re:(?<=card )payment)`);
    }
    if (this.startsWith('?:')) {
      this.at += 2;
      open = '(?:';
    } else if (this.startsWith('?<')) {
      this.at = this.src.indexOf('>', this.at) + 1; // a named group: the name does not matter to a test
    } else if (this.peek() === '?') {
      // a modifier group, (?i:...) or (?-i:...): RE2 folds case by its own flag; m and s change how ^, $ and . are written
      const end = this.src.indexOf(':', this.at);
      const [on = '', off = ''] = this.src.slice(this.at + 1, end).split('-');
      inner = { ...flags };
      for (const f of on) inner[f as keyof Flags] = true;
      for (const f of off) inner[f as keyof Flags] = false;
      this.at = end + 1;
      open = `(?${on.includes('i') ? 'i' : ''}${off.includes('i') ? '-i' : ''}:`;
    }
    const body = this.disjunction(inner);
    this.at++; // )
    return `${open}${body})`;
  }

  private atomEscape(flags: Flags): string {
    const c = this.peek(1)!;
    if (c === 'b' || c === 'B') {
      this.at += 2;
      return `\\${c}`; // ASCII word boundaries in both; the texts are NFKC-normalized, so without ſ or K
    }
    if (/[1-9]/.test(c) || c === 'k') {
      const ref = c === 'k' ? this.src.slice(this.at, this.src.indexOf('>', this.at) + 1) : /^\\\d+/.exec(this.src.slice(this.at))![0];
      throw new RegexProblem(`it uses a backreference (${ref}), and ${WHY}; write the repeated text out, or list the cases as alternatives (re:^(yes|no)$)`);
    }
    const set = this.classEscape(flags);
    if (set !== undefined) return classText(set, [], false, flags.i);
    return literal(this.characterEscape(false));
  }

  /** `\d \D \s \S \w \W \p{…} \P{…}` as the code points JavaScript matches, or undefined for another escape (left unread). */
  private classEscape(flags: Flags): Range[] | undefined {
    const c = this.peek(1);
    // these hold every case variant of their members (with `i`, \w holds ſ and K), and so do their complements
    const word = flags.i ? WORD_FOLDED : WORD;
    const simple: Record<string, Range[]> = { d: DIGITS, D: complement(DIGITS), s: SPACES, S: complement(SPACES), w: word, W: complement(word) };
    if (c !== undefined && simple[c] !== undefined) {
      this.at += 2;
      return simple[c];
    }
    if (c === 'p' || c === 'P') {
      const end = this.src.indexOf('}', this.at) + 1;
      const ranges = propertySet(this.src.slice(this.at, end), flags.i);
      this.at = end;
      return ranges;
    }
    return undefined;
  }

  /** The code point of a character escape at `\` (in a class, `\b` is a backspace and `\-` a hyphen). */
  private characterEscape(inClass: boolean): number {
    const c = this.peek(1)!;
    this.at += 2;
    const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, ...(inClass ? { b: 8 } : {}) };
    if (controls[c] !== undefined) return controls[c];
    if (c === '0') return 0;
    if (c === 'c') return this.src.charCodeAt(this.at++) % 32;
    if (c === 'x') {
      this.at += 2;
      return parseInt(this.src.slice(this.at - 2, this.at), 16);
    }
    if (c === 'u') {
      if (this.peek() === '{') {
        const end = this.src.indexOf('}', this.at);
        const cp = parseInt(this.src.slice(this.at + 1, end), 16);
        this.at = end + 1;
        return cp;
      }
      const unit = parseInt(this.src.slice(this.at, this.at + 4), 16);
      this.at += 4;
      // \uD83D\uDE00: one code point in `u` mode
      if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.src.slice(this.at))) {
        const low = parseInt(this.src.slice(this.at + 2, this.at + 6), 16);
        this.at += 6;
        return (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      }
      return unit;
    }
    return this.src.codePointAt(this.at - 1)!; // an identity escape: \. \/ \- ...
  }

  private characterClass(flags: Flags): string {
    this.at++; // [
    const inverted = this.peek() === '^';
    if (inverted) this.at++;
    const exact: Range[] = [];
    const folded: Range[] = [];
    while (this.peek() !== ']') {
      const set = this.peek() === '\\' ? this.classEscape(flags) : undefined;
      if (set !== undefined) {
        exact.push(...set);
        continue;
      }
      const lo = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        folded.push([lo, this.classAtom()]);
      } else folded.push([lo, lo]);
    }
    this.at++; // ]
    return classText(exact, folded, inverted, flags.i);
  }

  private classAtom(): number {
    if (this.peek() === '\\') return this.characterEscape(true);
    const cp = this.src.codePointAt(this.at)!;
    this.at += cp > 0xffff ? 2 : 1;
    return cp;
  }
}

/** RE2's reason for refusing a translated pattern, in the user's words. */
/**
 * A regular expression engine's message with the pattern it quotes cut short (JavaScript's `/pattern/flags: why`,
 * RE2's `` `pattern` ``): a cell of 100,000 characters is quoted in 80 of them.
 */
export function engineMessage(message: string): string {
  return message
    .replace(/^(Invalid regular expression: \/)([\s\S]*)(\/[a-z]*: [^/]*)$/, (_, head: string, pattern: string, tail: string) => `${head}${cut(pattern)}${tail}`)
    .replace(/`([^`]*)`/g, (_, pattern: string) => `\`${cut(pattern)}\``);
}

function re2Problem(full: string): string {
  const message = engineMessage(full);
  if (/invalid repeat count/.test(message)) return `it repeats more than 1000 times (${/`([^`]*)`/.exec(message)?.[1] ?? 'a count'}; nested counts multiply), and ${WHY}, which allows at most 1000; use + or * rather than a large count`;
  if (/too large|too deep|nest/i.test(message)) return `it is too large (${message.replace(/^error parsing regexp: /, '')}), and ${WHY}, which bounds a pattern's size; give alternatives apart in the cell (a || b)`;
  return `${WHY}, and it cannot take this pattern (${message.replace(/^error parsing regexp: /, '')})`;
}

/**
 * The most steps (RE2 instructions: a character, a class, a branch; `a{100}` is a hundred) a pattern may compile to.
 * Everyday patterns take a few dozen and match in microseconds. A match costs at most the text's length times the
 * steps alive at once, and RE2's automaton keeps that low while its states fit in DFA_BYTES: a 1 MiB answer built
 * against the pattern (`a.{490}b` over random a's and b's, whose automaton never meets a state twice) takes about 1 s
 * at 500 steps (`(a|b)*a(a|b){220}c`, 668 steps: 1 s). Past what fits, it grows twentyfold (`a.{990}b`: 50 s), so a
 * larger pattern is refused rather than risk a run that hangs.
 */
const MAX_STEPS = 500;

/**
 * Memory for the automaton RE2 builds as it reads one text (at 8 MiB, RE2's default, `a.{490}b` above took 19 s).
 * Between matches a pattern keeps at most RETAINED of it: a thousand patterns that met answers built against them
 * would hold gigabytes.
 */
const DFA_BYTES = 32 * 1024 * 1024;
const RETAINED = 64 * 1024;

/**
 * Compiles a JavaScript regular expression (flags `iu`, not anchored) into a linear-time test. Throws JavaScript's
 * SyntaxError for a pattern that is not one, a RegexProblem for one that needs backtracking or is too large.
 */
export function compileRegex(source: string): (text: string) => boolean {
  new RegExp(source, 'iu'); // its syntax errors, in JavaScript's words; and the translator may trust the syntax
  const translated = new Translator(source).translate();
  // a set of one pattern: RE2JS.compile would do, but only a set takes a memory budget and shows its automaton
  const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE, DFA_BYTES);
  try {
    set.add(translated);
    set.compile();
  } catch (error) {
    throw new RegexProblem(re2Problem((error as Error).message), { cause: error });
  }
  const steps = set.prog.numInst();
  if (steps > MAX_STEPS) {
    throw new RegexProblem(
      `it is too large: it compiles to ${steps} steps, more than ${MAX_STEPS}, and ${WHY}: a match takes time in the text's length ` +
        'times the steps; use + or * rather than large counts (a{1000}), or give alternatives apart in the cell (a || b)',
    );
  }
  return (text) => {
    const matched = set.match(text).length > 0;
    if (set.dfa.stateBudget - set.dfa.memBudget > RETAINED) set.dfa.clearCache();
    return matched;
  };
}
