/**
 * A ledger call's response read whole, with one promise, on undici's dispatcher.
 *
 * undici's `request()` makes per call an AsyncResource (async-hooks callbacks on every
 * request while the process has a request scope, requestContext.ts), a Readable stream for
 * the body and, to read that stream as text, a consumer with a promise of its own. The
 * gateway reads every ledger answer whole anyway, so a handler of its own collects the
 * chunks and hands over status, headers and bytes when the response has ended
 * (docs/benchmarks.md "Gateway"). What it reads is what `request()` gave: the headers parsed
 * by the same undici function, the text decoded as `body.text()` decodes it
 * (`wholeResponse.test.ts` holds the two side by side).
 */
import type { Dispatcher } from 'undici';

export interface WholeResponse {
  statusCode: number;
  /** as `request()` hands them over (undici's parseHeaders: names in lower case, a repeated header as a list) */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** the body's bytes as they arrived */
  chunks: readonly Buffer[];
  /** their total length */
  length: number;
}

/** The body as text, as undici's `body.text()` reads it: UTF-8, a leading byte order mark skipped. */
export function bodyText({ chunks, length }: WholeResponse): string {
  if (chunks.length === 0 || length === 0) return '';
  const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

/** The body's bytes in a buffer of their own (not a view of the socket's reads). */
export function bodyBytes({ chunks, length }: WholeResponse): Buffer {
  return Buffer.concat(chunks, length);
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

/** undici's handler for one request: collects the response, then settles the promise once. */
class WholeResponseHandler<T> implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private headers: WholeResponse['headers'] = {};
  private chunks: Buffer[] = [];
  private length = 0;
  private started = false;

  constructor(
    private readonly read: (response: WholeResponse) => T,
    private readonly unreachable: (err: Error) => Error,
    private readonly resolve: (value: T) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  /** present so undici takes this for a handler of its current interface (it wraps one without) */
  onRequestStart(): void {}

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // an informational (1xx) response is not the answer: `request()` passed it over too
    if (statusCode < 200) return;
    this.started = true;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    const { statusCode, headers, chunks, length } = this;
    try {
      this.resolve(this.read({ statusCode, headers, chunks, length }));
    } catch (err) {
      this.reject(err);
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.reject(this.started ? err : this.unreachable(err));
  }
}
