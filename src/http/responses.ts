import { EmissionsError } from '../core/errors';
import { httpMessages } from './messages';

/** The body of a 500: fixed text, never the error's message or stack. */
export const INTERNAL_ERROR_BODY = new EmissionsError('internal_error', httpMessages.internalError(), {
  status: 500,
}).toJSON();
