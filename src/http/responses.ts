import { EmissionsError } from '../core/errors';
import { httpMessages } from './messages';

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/** A JSON response. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The hosted API's error body `{ error, error_code, message, path?, valid_values? }` with the error's status. */
export function errorResponse(error: EmissionsError): Response {
  const headers: Record<string, string> = {};
  if (error.status === 405) headers.allow = 'POST';
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  return jsonResponse(error.toJSON(), error.status, headers);
}

/** The body of a 500: fixed text, never the error's message or stack. */
export const INTERNAL_ERROR_BODY = new EmissionsError('internal_error', httpMessages.internalError(), {
  status: 500,
}).toJSON();

export const internalErrorResponse = (): Response => jsonResponse(INTERNAL_ERROR_BODY, 500);
