/**
 * A ledger call's response read whole, with one promise, on undici's dispatcher.
 *
 * undici's `request()` makes per call an AsyncResource (async-hooks callbacks on every
 * request while the process has a request scope, requestContext.ts), a Readable stream for
 * the body and, to read that stream as text, a consumer with a promise of its own. The
 * gateway reads every ledger answer whole anyway, so a handler of its own collects the
 * chunks and hands over status, headers and bytes when the response has ended
 * (docs/benchmarks.md "Gateway"). What it reads is what `request()` gave: a header's value as
 * undici's parseHeaders gives it, the text decoded as `body.text()` decodes it, the bytes in
 * memory of their own as `body.arrayBuffer()` gives them (`wholeResponse.test.ts` holds the two
 * side by side).
 */
import { util, type Dispatcher } from 'undici';

export interface WholeResponse {
  statusCode: number;
  /** the headers as received: name, value, name, value… (read with `headersOf`) */
  rawHeaders: readonly (Buffer | string)[];
  /** the body's bytes as they arrived */
  chunks: readonly Buffer[];
  /** their total length */
  length: number;
}

/**
 * The response headers named (in lower case), each as `request()`'s parsed headers gave it
 * (undici's parseHeaders): the value read as Latin-1, a header sent more than once as the list
 * of its values, undefined when absent. One pass over the raw headers, reading only the values
 * asked for rather than every header into an object.
 */
export function headersOf({ rawHeaders }: WholeResponse, names: readonly string[]): (string | string[] | undefined)[] {
  const found: (string | string[] | undefined)[] = new Array(names.length).fill(undefined);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const at = names.indexOf(util.headerNameToString(rawHeaders[i]!));
    if (at < 0) continue;
    const raw = rawHeaders[i + 1]!;
    const value = typeof raw === 'string' ? raw : raw.toString('latin1');
    const before = found[at];
    if (before === undefined) found[at] = value;
    else if (typeof before === 'string') found[at] = [before, value];
    else before.push(value);
  }
  return found;
}

/** The body as text, as undici's `body.text()` reads it: UTF-8, a leading byte order mark skipped. */
export function bodyText({ chunks, length }: WholeResponse): string {
  if (chunks.length === 0 || length === 0) return '';
  const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

/**
 * The body's bytes in memory of their own, as `body.arrayBuffer()` gave them: not a view of the
 * socket's reads, nor a slice of Node's shared pool (Buffer.concat's for a small body).
 */
export function bodyBytes({ chunks, length }: WholeResponse): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(bytes, offset);
  return bytes;
}

/**
 * Sends `options` on `dispatcher` and resolves with `read` of the whole response. A failure
 * before the response started (no connection, a refused request, headers timeout) rejects
 * with `unreachable(err)`, as `request()`'s promise rejected; one while the body arrives
 * rejects with the error itself, as reading `request()`'s body did.
 */
export function requestWhole<T>(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  read: (response: WholeResponse) => T,
  unreachable: (err: Error) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    dispatcher.dispatch(options, new WholeResponseHandler(read, unreachable, resolve, reject));
  });
}

/**
 * undici's handler for one request: collects the response, then settles the promise once.
 * The interface undici's own `request()` handler implements (onHeaders with the raw headers):
 * a handler of undici's newer interface gets every header parsed into an object first.
 */
class WholeResponseHandler<T> implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private rawHeaders: readonly (Buffer | string)[] = [];
  private chunks: Buffer[] = [];
  private length = 0;
  private started = false;

  constructor(
    private readonly read: (response: WholeResponse) => T,
    private readonly unreachable: (err: Error) => Error,
    private readonly resolve: (value: T) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  onConnect(): void {}

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // an informational (1xx) response is not the answer: `request()` passed it over too
    if (statusCode < 200) return true;
    this.started = true;
    this.statusCode = statusCode;
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return true;
  }

  onComplete(): void {
    const { statusCode, rawHeaders, chunks, length } = this;
    try {
      this.resolve(this.read({ statusCode, rawHeaders, chunks, length }));
    } catch (err) {
      this.reject(err);
    }
  }

  onError(err: Error): void {
    this.reject(this.started ? err : this.unreachable(err));
  }
}
