/**
 * One named step of a job (Playwright's runner/tasks.ts is the model): it works on the job's state and may return
 * what undoes it, run when the job ends, whatever happened after it.
 */
export interface Task<S> {
  name: string;
  run: (state: S) => Promise<Teardown | void> | Teardown | void;
}

export type Teardown = () => Promise<void> | void;

/**
 * Runs the tasks in order on `state`; the first that throws stops the job. Then the teardowns of the tasks that ran are
 * run, last first, each whatever the others do; an error of a task wins over one of a teardown.
 */
export async function runTasks<S>(state: S, tasks: readonly Task<S>[]): Promise<void> {
  const teardowns: Teardown[] = [];
  let failed = false;
  try {
    for (const task of tasks) {
      const teardown = await task.run(state);
      if (teardown) teardowns.push(teardown);
    }
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    let first: unknown;
    for (const teardown of teardowns.reverse()) {
      try {
        await teardown();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined && !failed) throw first; // eslint-disable-line no-unsafe-finally
  }
}
