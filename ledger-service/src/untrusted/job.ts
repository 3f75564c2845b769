import { DomainError } from '../domain/errors.ts';
import type { JobMessage, JobOutcome } from './pool.ts';

/**
 * The thread side of a file job (pool.ts). Errors do not cross a thread boundary whole (a
 * structured clone keeps the message, not the class or the field), so a refusal — the
 * parser's DomainError, or an error the job names as "the file is wrong" — is returned as a
 * value; anything else is a fault of the code and is thrown as such.
 */
export function fileJob<I, O>(
  parse: (input: I) => O | Promise<O>,
  isRefusal: (err: unknown) => err is Error = (err): err is Error => false,
  /** loads what the parser needs (a wasm module, a large library) before the file's time starts; once per thread */
  prepare?: () => Promise<void>,
): (message: JobMessage<I>) => Promise<JobOutcome<O>> {
  return async ({ input, started }) => {
    await prepare?.();
    // the thread runs and its parser is loaded: from here on the time is the file's (pool.ts)
    Atomics.store(started, 0, 1);
    Atomics.notify(started, 0);
    try {
      return { ok: true, value: await parse(input) };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'invalid_request') {
        return { ok: false, message: err.message, ...(err.field ? { field: err.field } : {}) };
      }
      if (isRefusal(err)) return { ok: false, message: err.message };
      throw err;
    }
  };
}

/** The URL of a job module beside `from`: `.ts` when running from source, `.js` when compiled. */
export function jobModule(from: string, name: string): string {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from).href;
}
