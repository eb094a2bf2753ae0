import { isConversation, type DatasetItem } from '../model/question.js';
import { CONVERSATION } from './conversation.js';
import { QUESTION } from './question.js';
import type { Kind } from './work.js';

/** The kind of a dataset item. */
export const kindOf = (item: DatasetItem): Kind<DatasetItem> => (isConversation(item) ? CONVERSATION : QUESTION) as Kind<DatasetItem>;
