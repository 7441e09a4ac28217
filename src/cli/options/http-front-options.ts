// The flags of `atlas serve` that shape its HTTP front: read timeouts, the queue before a 429,
// and the proxies whose X-Forwarded-For names the client.
import { Option } from 'commander';
import { DEFAULT_SERVER_LIMITS } from '../../server/limits.ts';
import { DEFAULT_READ_TIMEOUTS } from '../../server/front/node-server.ts';
import { positiveInt } from './options.ts';
import { secondsOption } from './option-values.ts';

/** The parsed flags of the options below. */
export interface HttpFrontFlags {
  /** `--trust-proxy` values as given (parse with parseTrustedProxies). */
  trustProxy?: string[];
  /** In ms. */
  headerTimeout: number;
  /** In ms. */
  bodyTimeout: number;
  /** In ms; 0: no queue. */
  queueWait: number;
  maxQueued: number;
}

/** Seconds to whole ms, at least 1. */
const wholeMs = (name: string) => (value: string) => Math.max(1, Math.round(secondsOption(name)(value)));

/** `--trust-proxy <cidr>`: repeatable, each an address, a CIDR range or a comma list of them (parse with parseTrustedProxies). */
export function trustProxyOption(): Option {
  return new Option('--trust-proxy <cidr>', 'a reverse proxy (address or CIDR range, IPv4 or IPv6; repeatable or comma-separated) whose X-Forwarded-For names the client; default: none').argParser(
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}

/** `--header-timeout <seconds>`, parsed to ms (default 10 s). */
export function headerTimeoutOption(): Option {
  return new Option('--header-timeout <seconds>', `answer 408 and close a connection whose request headers take longer (default ${DEFAULT_READ_TIMEOUTS.headerTimeoutMs / 1000})`)
    .argParser(wholeMs('--header-timeout'))
    .default(DEFAULT_READ_TIMEOUTS.headerTimeoutMs, String(DEFAULT_READ_TIMEOUTS.headerTimeoutMs / 1000));
}

/** `--body-timeout <seconds>`, parsed to ms (default 10 s): the body's time after the headers. */
export function bodyTimeoutOption(): Option {
  return new Option('--body-timeout <seconds>', `answer 408 when the request body takes this much longer than the headers (default ${DEFAULT_READ_TIMEOUTS.bodyTimeoutMs / 1000})`)
    .argParser(wholeMs('--body-timeout'))
    .default(DEFAULT_READ_TIMEOUTS.bodyTimeoutMs, String(DEFAULT_READ_TIMEOUTS.bodyTimeoutMs / 1000));
}

/** `--queue-wait <seconds>`, parsed to ms (default 2 s; 0: refuse at once). */
export function queueWaitOption(): Option {
  return new Option('--queue-wait <seconds>', `how long a request past the concurrency limits waits for a slot before its 429 (default ${DEFAULT_SERVER_LIMITS.queueMs / 1000}; 0: no wait)`)
    .argParser((value: string) => (value.trim() === '0' ? 0 : wholeMs('--queue-wait')(value)))
    .default(DEFAULT_SERVER_LIMITS.queueMs, String(DEFAULT_SERVER_LIMITS.queueMs / 1000));
}

/** `--max-queued <n>` (default 32). */
export function maxQueuedOption(): Option {
  return new Option('--max-queued <n>', 'requests waiting for a slot at most, all clients').argParser(positiveInt('--max-queued')).default(DEFAULT_SERVER_LIMITS.maxQueued);
}
