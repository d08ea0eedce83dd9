import type { IncomingMessage } from 'node:http';

/** Most bytes of a rejected upload read and dropped so that its connection can stay open. */
export const DROP_REST_BYTES = 16_000_000;
/** How long the rest of a rejected upload is read and dropped before the answer goes out regardless. */
export const DROP_REST_MS = 2_000;

/**
 * Reads and drops the rest of an upload the rules rejected before its end (its headers failed a rule, or it
 * passed the size limit), so that a client still sending reads the answer rather than a connection reset, and a
 * kept-alive connection stays usable. Resolves `true` when the upload ended; `false` when more than
 * {@link DROP_REST_BYTES} remain, the rest takes longer than {@link DROP_REST_MS}, or the socket fails: the answer
 * then closes the connection, and whatever still arrives is dropped unread. Type imports only.
 */
export function dropRest(request: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let dropped = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      if (!ended) request.on('data', () => undefined);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.byteLength;
      if (dropped > DROP_REST_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), DROP_REST_MS);
    request.on('error', () => undefined);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('close', onClose);
    request.resume();
  });
}
