/** The exit codes, as shown at the end of every --help. */
export const EXIT_CODES_HELP = `Exit codes:
  0  the command completed and every gate passed
  1  a gate failed (every report, compare.* included, is still written)
  2  usage, configuration, dataset or report error; incomparable reports
  3  the run could not complete (not authorized, unreachable, aborted, dataset
     changed, disk full) or measured nothing (every question in error; for
     compare, no question answered in both runs), or a regression gate cannot
     be judged (HEAD a shard or a partial run of BASE's dataset)`;
