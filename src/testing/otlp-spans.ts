// Reading what an OTLP/HTTP JSON exporter sent: tests of tracing point the real exporter at a
// loopback server (startLoopbackServer) and read the spans back from its requests.

/** One span as an OTLP/JSON export carries it, flattened for assertions. */
export interface ExportedSpan {
  name: string;
  /** The parent span's name, `root` for a span whose parent was not exported with it. */
  parent: string;
  /** OTLP's span kind number: 1 internal, 2 server, 3 client. */
  kind: number;
  traceId: string;
  attributes: Record<string, unknown>;
  /** The `service.name` of the span's resource. */
  service: string | undefined;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpBody {
  resourceSpans: Array<{
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: Array<{ spans: Array<{ name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpKeyValue[] }> }>;
  }>;
}

/**
 * The spans of OTLP/HTTP JSON export bodies, every body given, in the order they were sent.
 *
 * @example
 * const spans = otlpSpans(collector.requests().map((request) => request.rawBody));
 * spans.map((span) => `${span.name} <- ${span.parent}`); // ['atlas.search <- atlas.run', ...]
 */
export function otlpSpans(bodies: string[]): ExportedSpan[] {
  const raw = bodies.flatMap((body) =>
    (JSON.parse(body) as OtlpBody).resourceSpans.flatMap((resource) => {
      const service = attributesOf(resource.resource.attributes)['service.name'];
      return resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ span, service: typeof service === 'string' ? service : undefined })));
    }),
  );
  const names = new Map(raw.map(({ span }) => [span.spanId, span.name]));
  return raw.map(({ span, service }) => ({
    name: span.name,
    parent: names.get(span.parentSpanId ?? '') ?? 'root',
    kind: span.kind,
    traceId: span.traceId,
    attributes: attributesOf(span.attributes ?? []),
    service,
  }));
}

function attributesOf(list: OtlpKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
