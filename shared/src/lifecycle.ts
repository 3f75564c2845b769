/**
 * Stopping on SIGINT (Ctrl-C), SIGTERM and SIGHUP, for every long-running entry point
 * (`npm start`, `ledger serve`, `gateway serve`).
 *
 * The first signal asks to stop: the entry point lets requests in flight finish, then
 * releases what it holds. A second signal exits at once — except the same signal again
 * within DUPLICATE_MS of the first: Ctrl-C under `npm start` reaches the server twice, once
 * from the terminal (the whole foreground process group gets it) and once forwarded by npm,
 * and that is one keypress, not two. Exiting at once still runs the process's `exit`
 * handlers (the embedded database's lock is released in one, db/embeddedLock.ts).
 *
 * Handlers are installed when this is called, so a signal that arrives while the entry point
 * is still starting is not lost and does not kill the process halfway: the entry point
 * checks `requested` between its steps and stops cleanly.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** A repeat of the first signal within this long is the same request (terminal + npm). */
export const DUPLICATE_MS = 1_000;

export interface StopRequests {
  /** the signal that asked to stop, once one did */
  readonly requested: NodeJS.Signals | undefined;
  /** resolves with that signal */
  readonly whenRequested: Promise<NodeJS.Signals>;
  /** removes the handlers (tests, and entry points that finished) */
  dispose(): void;
}

export function onStopSignals(
  opts: {
    log?: (line: string) => void;
    /** called on a second signal before exiting with code 1 (default process.exit) */
    exitNow?: (code: number) => void;
    now?: () => number;
  } = {},
): StopRequests {
  const log = opts.log ?? (() => {});
  const exitNow = opts.exitNow ?? ((code: number) => process.exit(code));
  const now = opts.now ?? (() => performance.now());
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  let resolve!: (signal: NodeJS.Signals) => void;
  const whenRequested = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const handler = (signal: NodeJS.Signals) => {
    if (!first) {
      first = { signal, at: now() };
      log(
        `${signal}: letting requests in flight finish, then stopping ` +
          `(${signal === 'SIGINT' ? 'Ctrl-C' : 'a signal'} again stops at once)`,
      );
      resolve(signal);
      return;
    }
    if (signal === first.signal && now() - first.at < DUPLICATE_MS) return;
    log(`${signal} again: stopping now`);
    exitNow(1);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return {
    get requested() {
      return first?.signal;
    },
    whenRequested,
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, handler);
    },
  };
}
