import type { CommandModule } from 'yargs';

export const runCommand: CommandModule = {
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  handler: async () => {
    throw new Error('not yet');
  },
};
