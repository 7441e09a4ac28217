/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Units of work (runs) expected; can be changed later with `setTotal`. */
  total: number;
  label: string;
  /** Where the bar goes (stderr). */
  write: (text: string) => void;
  /** Redraw one line in place (a terminal), or print a line every ~10% (logs, CI). */
  isTTY: boolean;
  /** Clock in ms. */
  now: () => number;
}

/** A progress bar: call `tick()` after each finished unit, `done()` at the end. */
export interface Progress {
  tick(units?: number): void;
  setTotal(total: number): void;
  done(): void;
}

const WIDTH = 24;

/**
 * A progress bar on stderr with an ETA (elapsed time per finished unit times the units left).
 *
 * @example
 * const progress = createProgress({ total: 40, label: 'compare', write: io.stderr, isTTY: io.isTTY, now: io.now });
 * progress.tick(); // "compare [##----] 1/40 2% ETA 1m05s"
 */
export function createProgress(options: ProgressOptions): Progress {
  const started = options.now();
  let total = options.total;
  let finished = 0;
  let lastDecile = 0;
  let drawn = false;
  let closed = false;

  const line = () => {
    const ratio = total === 0 ? 1 : Math.min(1, finished / total);
    const elapsed = options.now() - started;
    const eta = finished === 0 ? '?' : formatDuration((elapsed / finished) * Math.max(0, total - finished));
    const percent = `${Math.floor(ratio * 100)}%`;
    if (!options.isTTY) return `${options.label}: ${finished}/${total} (${percent}), ETA ${eta}`;
    const filled = Math.round(ratio * WIDTH);
    return `${options.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${finished}/${total} ${percent} ETA ${eta}`;
  };

  return {
    tick(units = 1) {
      if (closed) return;
      finished += units;
      if (options.isTTY) {
        options.write(`\r\x1b[2K${line()}`);
        drawn = true;
        return;
      }
      const decile = total === 0 ? 10 : Math.floor((finished / total) * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        options.write(`${line()}\n`);
      }
    },
    setTotal(next) {
      total = next;
    },
    done() {
      if (closed) return;
      closed = true;
      if (options.isTTY && drawn) options.write('\n');
    },
  };
}

/**
 * A duration for humans: `42s`, `3m05s`, `1h02m`.
 *
 * @example
 * formatDuration(65_000); // '1m05s'
 */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
