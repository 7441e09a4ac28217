// Tracing as the rest of Atlas sees it: a tracer handed to each run, and the start of the
// OpenTelemetry SDK when the environment configures an exporter (the SDK is loaded only then).
import { SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { tracingConfig, type TracingConfig } from './tracing-config.ts';

/**
 * What a run needs to trace itself: the tracer its spans come from. Runs given none use the
 * OpenTelemetry API's global tracer, a no-op unless the application registered a provider.
 *
 * @example
 * await agenticRun(question, { model, index, tracing: { tracer: provider.getTracer('atlas') } });
 */
export interface RunTracing {
  tracer: Tracer;
  /** Prompts and model outputs on the AI SDK's model-call spans (default false: names, ids and counts only). */
  recordContent?: boolean;
}

/** Tracing started by {@link startTracing}: a tracer, and the shutdown that flushes what is left to export. */
export interface Tracing extends RunTracing {
  /** Exports the spans not sent yet, then stops the SDK; await it before the process exits. Never throws. */
  shutdown(): Promise<void>;
}

/** The name of Atlas's tracer (the instrumentation scope of its spans). */
export const ATLAS_TRACER_NAME = 'atlas-rag';

/**
 * Starts the OpenTelemetry SDK when `env` configures an exporter (see `tracingConfig`):
 * a tracer provider with a batch processor per exporter, registered as the process's provider
 * with async context and W3C trace-context propagation. Returns undefined, having loaded
 * nothing, when tracing is not configured.
 *
 * @example
 * const tracing = await startTracing({ env: process.env, serviceVersion: '0.1.0' });
 * try { await routedAsk(question, { ...options, ...(tracing ? { tracing } : {}) }); } finally { await tracing?.shutdown(); }
 */
export async function startTracing(options: {
  env: Record<string, string | undefined>;
  serviceVersion: string;
  /** Loads the SDK side (default: a dynamic import of sdk-tracing.ts); tests check it is not called. */
  load?: () => Promise<{ createConfiguredTracing: (config: TracingConfig, serviceVersion: string) => Tracing }>;
}): Promise<Tracing | undefined> {
  const config = tracingConfig(options.env);
  if (config === undefined) return undefined;
  const { createConfiguredTracing } = await (options.load ?? (() => import('./sdk-tracing.ts')))();
  return createConfiguredTracing(config, options.serviceVersion);
}

/** The tracer of a run: the one given, else the API's global tracer (a no-op unless a provider is registered). */
export function tracerOf(tracing: RunTracing | undefined): Tracer {
  return tracing?.tracer ?? trace.getTracer(ATLAS_TRACER_NAME);
}

/**
 * Runs `work` in a span made active for it (the spans started inside are its children), and ends
 * the span when `work` settles; a thrown error is recorded on the span and rethrown.
 *
 * @example
 * await inSpan(tracerOf(tracing), 'atlas ask', { 'atlas.route': 'agentic' }, () => routedAsk(question, options));
 */
export async function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed by `error`: the exception recorded, the status `ERROR` with its message. */
export function failSpan(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * A text as a span attribute: at most `limit` characters (default 1000), the cut marked with "…",
 * so a 100 KB question does not become a 100 KB span.
 *
 * @example
 * attributeText('x'.repeat(2000)).length; // 1000
 */
export function attributeText(text: string, limit = 1000): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
