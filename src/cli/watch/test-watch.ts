// Test helpers of --watch: a manual clock and a file watcher the test drives.
import type { FolderWatcher, CreateFolderWatcher } from './folder-watcher.ts';
import type { WatchTimers } from './ingest-watcher.ts';

/** Timers that fire only when the test advances the clock. */
export interface ManualTimers extends WatchTimers {
  /** Moves the clock forward by `ms`, firing every timer due, in order. */
  advance(ms: number): void;
  /** Timers set and not yet fired or cleared. */
  pending(): number;
}

/**
 * @example
 * const timers = manualTimers();
 * timers.setTimeout(() => console.log('fired'), 300);
 * timers.advance(300); // fired
 */
export function manualTimers(): ManualTimers {
  let now = 0;
  let nextId = 1;
  const due = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      due.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => {
      due.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (next === undefined || next[1].at > end) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].callback();
      }
      now = end;
    },
    pending: () => due.size,
  };
}

/** A file watcher whose changes the test reports; it records what it was asked to ignore and whether it was closed. */
export interface ScriptedWatcher {
  create: CreateFolderWatcher;
  /** Reports a change of `file` (absolute), unless the watcher's `ignored` says to leave it. */
  change(file: string): void;
  error(error: Error): void;
  closed(): boolean;
  root(): string | undefined;
}

export function scriptedWatcher(): ScriptedWatcher {
  let listener: ((file: string) => void) | undefined;
  let onError: ((error: Error) => void) | undefined;
  let ignored: (file: string) => boolean = () => false;
  let watchedRoot: string | undefined;
  let isClosed = false;
  const watcher: FolderWatcher = {
    onChange: (callback) => {
      listener = callback;
    },
    onError: (callback) => {
      onError = callback;
    },
    ready: Promise.resolve(),
    close: async () => {
      isClosed = true;
    },
  };
  return {
    create: (root, options) => {
      watchedRoot = root;
      ignored = options.ignored;
      return watcher;
    },
    change: (file) => {
      if (!isClosed && !ignored(file)) listener?.(file);
    },
    error: (error) => onError?.(error),
    closed: () => isClosed,
    root: () => watchedRoot,
  };
}
