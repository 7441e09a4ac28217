/** What the CLI touches of the outside world; `bin/atlas.js` passes the real process, tests pass fakes. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Directory relative paths resolve against. */
  cwd: string;
  /** Whether stderr is a terminal (progress bars redraw in place only then). */
  isTTY: boolean;
  /** Clock in ms. */
  now: () => number;
  /** Standard input, read by the interactive `atlas chat` (absent: chat refuses to start). */
  stdin?: NodeJS.ReadableStream;
  /**
   * The HTTP client of the model commands: it asks a local Ollama for a model when none is named
   * (absent: no Ollama is asked), and the model's provider client uses it (absent: the global fetch).
   */
  fetch?: typeof fetch;
}

/** The real process's IO. */
export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stderr.isTTY === true,
    now: () => performance.now(),
    stdin: process.stdin,
    fetch: globalThis.fetch,
  };
}
