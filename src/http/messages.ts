import { shownInput } from '../core/errors';

/** Characters of a request line's or header's text a message quotes (a path is often longer than a field's value). */
const REQUEST_TEXT_SHOWN = 100;

/** Messages of the HTTP adapter, kept together so wording stays consistent. Client text is quoted cut short. */
export const httpMessages = {
  missingApiKey: () => 'Missing API key. Send it as the header `Authorization: Bearer <API_KEY>`.',
  invalidApiKey: () => 'The API key is not valid.',
  forbidden: () => 'The API key is valid, but not for this operation.',
  notFound: (method: string, path: string) =>
    `No route ${shownInput(method)} ${shownInput(path, REQUEST_TEXT_SHOWN)}. See the endpoint list in the documentation.`,
  notServed: (family: string) =>
    `This server has no ${family} datasets, so it does not serve ${family} routes.`,
  metadataMethodNotAllowed: (method: string) =>
    `Method ${shownInput(method)} is not allowed; metadata routes and /openapi.json take GET (or HEAD).`,
  methodNotAllowed: (method: string) =>
    `Method ${shownInput(method)} is not allowed; every route takes POST with a JSON body.`,
  unsupportedMediaType: (contentType: string) =>
    `Content-Type '${shownInput(contentType, REQUEST_TEXT_SHOWN)}' is not supported; send \`Content-Type: application/json\` (UTF-8).`,
  unsupportedContentCoding: (coding: string) =>
    `Content coding '${shownInput(coding)}' is not supported; send the body uncompressed (no Content-Encoding).`,
  payloadTooLarge: (maxBytes: number) => `The request body is larger than ${maxBytes} bytes.`,
  emptyBody: () => 'The request body is empty; send a JSON value.',
  notUtf8: () => 'The request body is not valid UTF-8.',
  unreadableBody: () => 'The request body could not be read.',
  invalidJson: (detail: string) => `The request body is not valid JSON: ${detail}`,
  answerTooLarge: (maxLength: number, factor: number) =>
    `The answer would be longer than ${maxLength} characters (${factor} times the request's bytes); send fewer elements per batch.`,
  requestTimeout: () => 'The request did not arrive in time; send it whole, without pauses.',
  headersTooLarge: () => 'The request headers are larger than the server accepts.',
  chunkExtensionsTooLarge: () => "The request's chunk extensions are larger than the server accepts.",
  notHttp: () => 'The request is not valid HTTP/1.1.',
  internalError: () => 'An internal error occurred. The request was not processed.',
} as const;
