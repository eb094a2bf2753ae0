/** The response formats a request may ask for (spec 2.1 `output`). */
export const OUTPUTS = ['json', 'xml', 'html', 'text'] as const;
export type Output = (typeof OUTPUTS)[number];

export const isOutput = (value: string): value is Output => (OUTPUTS as readonly string[]).includes(value);

/** How a request field a dataset row may set is written, sent and said. */
export interface RowRequestField {
  /** The dataset column (CSV header or JSONL key), also the field's name in the request body. */
  column: string;
  /** The run flag that gives its default. */
  flag: `--${string}`;
  /** `flag`: 0 or 1 (spec 2.1/2.2); `output`: one of OUTPUTS. */
  kind: 'flag' | 'output';
  /** Where the request carries it: the body (2.1) or its question object (2.2). */
  in: 'body' | 'question';
}

/**
 * The one table of the request fields a row may set for its own question, each defaulting to a run flag: the
 * dataset reader, validate, the request builder, the journal header, the report (`run.options`, and `sent` on a
 * result that was asked otherwise than the run's defaults) and results.csv all read it.
 */
export const ROW_REQUEST_FIELDS = {
  forceSubscription: { column: 'force_subscription', flag: '--force-subscription', kind: 'flag', in: 'body' },
  askForMetadata: { column: 'ask_for_metadata', flag: '--ask-for-metadata', kind: 'flag', in: 'question' },
  usingRepeatingAnswers: { column: 'using_repeating_answers', flag: '--using-repeating-answers', kind: 'flag', in: 'question' },
  output: { column: 'output', flag: '--output', kind: 'output', in: 'body' },
} as const satisfies Record<string, RowRequestField>;

export type RowRequestKey = keyof typeof ROW_REQUEST_FIELDS;
export const ROW_REQUEST_KEYS = Object.keys(ROW_REQUEST_FIELDS) as RowRequestKey[];

/** What a row (or a result's `sent`) sets of them: only the fields given. */
export interface RowRequest {
  forceSubscription?: boolean;
  askForMetadata?: boolean;
  usingRepeatingAnswers?: boolean;
  output?: Output;
}

/** A value as the request body writes it: a flag as the public sample does ("0", "1"), an output as it is. */
export const sentValue = (value: boolean | Output): string => (typeof value === 'boolean' ? (value ? '1' : '0') : value);

/** `output=xml; force_subscription=1`: what a result's `sent` holds, in table order; '' for none. */
export const describeSent = (sent: RowRequest | undefined): string =>
  sent === undefined
    ? ''
    : ROW_REQUEST_KEYS.flatMap((k) => (sent[k] === undefined ? [] : [`${ROW_REQUEST_FIELDS[k].column}=${sentValue(sent[k])}`])).join('; ');
