// The OpenTelemetry SDK side of tracing, loaded only when an exporter is configured.
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ATLAS_TRACER_NAME, type Tracing } from './tracing.ts';
import type { TracingConfig } from './tracing-config.ts';

/**
 * Tracing for a configuration read by `tracingConfig`: a batch span processor per exporter
 * (OTLP/HTTP with the URL, headers and timeout of the config; console), see {@link createTracing}.
 *
 * @example
 * const tracing = createConfiguredTracing(tracingConfig(process.env)!, '0.1.0');
 */
export function createConfiguredTracing(config: TracingConfig, serviceVersion: string): Tracing {
  const spanProcessors = config.exporters.map((name) =>
    new BatchSpanProcessor(
      name === 'console'
        ? new ConsoleSpanExporter()
        : new OTLPTraceExporter({ url: config.otlp!.url, headers: config.otlp!.headers, ...(config.otlp!.timeoutMillis === undefined ? {} : { timeoutMillis: config.otlp!.timeoutMillis }) }),
    ),
  );
  return createTracing({ spanProcessors, serviceName: config.serviceName, serviceVersion, resourceAttributes: config.resourceAttributes, recordContent: config.recordContent });
}

/**
 * A tracer provider over `spanProcessors`, registered as the process's provider with async
 * context (so the AI SDK's spans nest under the span active when a model is called) and W3C
 * trace-context propagation. `shutdown` flushes, stops the processors and unregisters it.
 *
 * @example
 * const memory = new InMemorySpanExporter();
 * const tracing = createTracing({ spanProcessors: [new SimpleSpanProcessor(memory)], serviceVersion: 'test' });
 */
export function createTracing(options: {
  spanProcessors: SpanProcessor[];
  serviceVersion: string;
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  recordContent?: boolean;
}): Tracing {
  const resource = defaultResource().merge(resourceFromAttributes({
    ...options.resourceAttributes,
    [ATTR_SERVICE_NAME]: options.serviceName ?? 'atlas',
    [ATTR_SERVICE_VERSION]: options.serviceVersion,
  }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: options.spanProcessors });
  provider.register();
  return {
    tracer: provider.getTracer(ATLAS_TRACER_NAME, options.serviceVersion),
    recordContent: options.recordContent === true,
    shutdown: async () => {
      try {
        await provider.shutdown();
      } catch {
        // An exporter that cannot reach its collector must not fail the command; its spans are lost.
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}
