/** The exit codes, as shown at the end of every --help. */
export const EXIT_CODES_HELP = `Exit codes:
  0  the command completed and every gate passed
  1  a gate failed (every report, compare.* included, is still written)
  2  usage, configuration, dataset or report error; incomparable reports
  3  the run could not complete (not authorized, unreachable, aborted, dataset
     changed, disk full) or measured nothing or too little (every question in
     error, or more than half without --max-error-rate; for compare, no
     question answered in both runs), or a gate cannot be judged (compare: HEAD
     a shard or a partial run of BASE's dataset; trend: a run that may be the
     latest cannot be read)`;
