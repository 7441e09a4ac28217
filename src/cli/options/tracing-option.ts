// Tracing of the commands that run the agent (ask, serve, mcp): on when the environment
// configures an OpenTelemetry exporter (docs/observability.md), with nothing loaded otherwise.
import { AtlasError } from '../../errors.ts';
import { tracingConfig } from '../../telemetry/tracing-config.ts';
import { startTracing, type Tracing } from '../../telemetry/tracing.ts';
import type { CliIO } from '../io.ts';
import { ATLAS_VERSION } from '../version.ts';

/**
 * Starts tracing when `io.env` configures an exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_TRACES_EXPORTER`); undefined otherwise. The caller awaits `shutdown()` before it
 * returns, so the last spans are exported. `stdoutIsProtocol` (atlas mcp) refuses the console
 * exporter, which would write spans into the protocol's stream.
 *
 * @example
 * const tracing = await commandTracing(io);
 * try { ... } finally { await tracing?.shutdown(); }
 */
export function commandTracing(io: Pick<CliIO, 'env'>, options: { stdoutIsProtocol?: boolean } = {}): Promise<Tracing | undefined> {
  if (options.stdoutIsProtocol && tracingConfig(io.env)?.exporters.includes('console')) {
    throw new AtlasError('usage', 'Atlas: OTEL_TRACES_EXPORTER "console" prints spans on stdout, which atlas mcp keeps for the MCP protocol. Use otlp with OTEL_EXPORTER_OTLP_ENDPOINT, or unset OTEL_TRACES_EXPORTER.');
  }
  return startTracing({ env: io.env, serviceVersion: ATLAS_VERSION });
}
