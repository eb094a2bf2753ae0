import { parse, type TestCase, type TestSuite, type TestSuites } from 'junit2json';

export type CaseKind = 'passed' | 'failure' | 'skipped' | 'error';

export interface ParsedCase {
  /** The question's or conversation's id: the testcase name up to its first ": ". */
  id: string;
  kind: CaseKind;
  message: string | undefined;
}

export interface ParsedSuite {
  name: string;
  /** The suite's own counts, as its attributes say them. */
  counts: { tests: number; failures: number; errors: number; skipped: number };
  cases: ParsedCase[];
  properties: Record<string, string>;
}

const kindOf = (c: TestCase): CaseKind => (c.failure ? 'failure' : c.error ? 'error' : c.skipped ? 'skipped' : 'passed');
const messageOf = (c: TestCase): string | undefined => c.failure?.[0]?.message ?? c.error?.[0]?.message ?? c.skipped?.[0]?.message;

/** A junit.xml read by junit2json (a real JUnit reader), as suites of cases with their kind, and the totals. */
export async function readJunit(xml: string): Promise<{ totals: TestSuites & { skipped?: number }; suites: ParsedSuite[] }> {
  const parsed = (await parse(xml)) as TestSuites & { skipped?: number };
  const suites = (parsed.testsuite ?? []).map((s: TestSuite) => ({
    name: s.name ?? '',
    counts: { tests: s.tests ?? 0, failures: s.failures ?? 0, errors: s.errors ?? 0, skipped: s.skipped ?? 0 },
    cases: (s.testcase ?? []).map((c) => ({ id: (c.name ?? '').split(': ')[0]!, kind: kindOf(c), message: messageOf(c) })),
    properties: Object.fromEntries((s.properties ?? []).map((p) => [p.name ?? '', String(p.value ?? '')])),
  }));
  return { totals: parsed, suites };
}

/** The ids of a suite's cases of one kind, sorted. */
export const idsOf = (suite: ParsedSuite, kind: CaseKind): string[] => suite.cases.filter((c) => c.kind === kind).map((c) => c.id).sort();

/** A suite's counts as its testcases give them: what its attributes must say. */
export const countedCases = (suite: ParsedSuite) => ({
  tests: suite.cases.length,
  failures: idsOf(suite, 'failure').length,
  errors: idsOf(suite, 'error').length,
  skipped: idsOf(suite, 'skipped').length,
});
