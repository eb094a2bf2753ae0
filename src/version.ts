import { readFileSync } from 'node:fs';
import { fromPackage } from './util/package-root.js';

const pkg = JSON.parse(readFileSync(fromPackage('package.json'), 'utf8')) as {
  name: string;
  version: string;
};

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;
