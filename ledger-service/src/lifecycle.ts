/**
 * Runs `shutdown` once on the first SIGTERM or SIGINT, then exits (0, or 1 when shutting
 * down failed). A second signal while shutting down exits at once.
 */
export function onShutdownSignal(shutdown: (signal: string) => Promise<void>, log: (msg: string) => void = () => {}): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: finishing in-flight requests, then stopping`);
    shutdown(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        log(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
