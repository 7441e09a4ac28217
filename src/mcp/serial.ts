/**
 * Runs tasks one at a time, in the order they were queued: a session's tool calls must not
 * interleave (two concurrent searches would both miss what the other is about to show).
 *
 * @example
 * const serial = createSerialQueue();
 * await Promise.all([serial(() => searchA()), serial(() => searchB())]); // B starts after A ends
 */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
