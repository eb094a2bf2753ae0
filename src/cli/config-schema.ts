import { commandSpec } from '../config/options.js';
import { renderConfigJsonSchema } from '../config/schema.js';
import { commands } from './commands/index.js';

/** schema/config.schema.json: the config file of every command of the CLI, for editor completion (`npm run schema`). */
export const renderCliConfigSchema = (): string => renderConfigJsonSchema(commands.map(commandSpec));
