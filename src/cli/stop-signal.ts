/**
 * Resolves with the signal's name at the process's first SIGINT or SIGTERM (and stops listening):
 * what `atlas serve` and `atlas ingest --watch` wait on before they stop cleanly.
 *
 * @example
 * const signal = await processStopSignal(); // 'SIGINT' after Ctrl-C
 */
export function processStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
