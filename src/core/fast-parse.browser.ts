/**
 * The browser build of `#fast-parse` (package.json `imports`, condition `browser`): the schema's ordinary parser.
 * zod's compiler would add about 10 KB gzip to every app for a faster path that browsers' request volumes do not
 * need, and that a strict Content-Security-Policy forbids anyway.
 */
export const fastParser = <S>(schema: S): S => schema;
