// What the OpenTelemetry environment variables ask of Atlas's tracing, read from the env given
// (never process.env), checked, and without loading the SDK.
import { AtlasError } from '../errors.ts';

/** An exporter Atlas can send spans to. */
export type TraceExporterName = 'otlp' | 'console';

/** Where and how OTLP/HTTP spans are sent. */
export interface OtlpTarget {
  /** The full traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  url: string;
  headers: Record<string, string>;
  /** Export timeout in ms; absent: the exporter's default (10 s). */
  timeoutMillis?: number;
}

/** Tracing as configured by the environment. */
export interface TracingConfig {
  exporters: TraceExporterName[];
  /** Set when `exporters` holds `otlp`. */
  otlp?: OtlpTarget;
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, parsed. */
  resourceAttributes: Record<string, string>;
  /** `ATLAS_TRACE_CONTENT=true`: prompts and model outputs on the AI SDK's spans. */
  recordContent: boolean;
}

type Env = Record<string, string | undefined>;

const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';
const DOCS = 'docs/observability.md';

/**
 * Reads the tracing configuration from `env`: undefined (tracing off, nothing to load) unless an
 * OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or
 * `OTEL_TRACES_EXPORTER` names an exporter; `OTEL_TRACES_EXPORTER=none` and
 * `OTEL_SDK_DISABLED=true` turn it off. A bad value throws an `AtlasError` naming the variable,
 * the value and the fix.
 *
 * @example
 * tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })?.otlp?.url; // 'http://127.0.0.1:4318/v1/traces'
 * tracingConfig({}); // undefined
 */
export function tracingConfig(env: Env): TracingConfig | undefined {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporters = exporterNames(env);
  if (exporters.length === 0) return undefined;
  const resourceAttributes = keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES') ?? {};
  return {
    exporters,
    ...(exporters.includes('otlp') ? { otlp: otlpTarget(env) } : {}),
    // OTEL_SERVICE_NAME wins over a service.name of OTEL_RESOURCE_ATTRIBUTES, as the OTel spec says.
    serviceName: value(env, 'OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'atlas',
    resourceAttributes,
    recordContent: flag(env, 'ATLAS_TRACE_CONTENT'),
  };
}

function exporterNames(env: Env): TraceExporterName[] {
  const named = value(env, 'OTEL_TRACES_EXPORTER');
  if (named === undefined) {
    const endpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
    return endpoint === undefined ? [] : ['otlp'];
  }
  const names = [...new Set(named.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))];
  if (names.includes('none')) {
    if (names.length > 1) throw usage(`OTEL_TRACES_EXPORTER "${named}" names "none" with other exporters. Use none alone (no traces), or list otlp and/or console.`);
    return [];
  }
  for (const name of names) {
    if (name !== 'otlp' && name !== 'console') throw usage(`OTEL_TRACES_EXPORTER "${named}" names "${name}", which Atlas does not export to. Use otlp (OTLP over HTTP), console, or none (${DOCS}).`);
  }
  return names as TraceExporterName[];
}

function otlpTarget(env: Env): OtlpTarget {
  const protocolVariable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = value(env, protocolVariable);
  // The installed exporter speaks OTLP/HTTP with JSON bodies; collectors take JSON and protobuf on the same port.
  if (protocol !== undefined && protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw usage(`${protocolVariable} "${protocol}" is not supported: Atlas sends OTLP over HTTP (JSON bodies). Set it to http/json, or unset it, and point the endpoint at the collector's HTTP port (4318).`);
  }
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const url = tracesEndpoint === undefined ? `${(value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? DEFAULT_OTLP_ENDPOINT).replace(/\/+$/, '')}/v1/traces` : tracesEndpoint;
  checkUrl(url, tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const headers = keyValueList(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') ?? keyValueList(env, 'OTEL_EXPORTER_OTLP_HEADERS') ?? {};
  const timeoutVariable = value(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') === undefined ? 'OTEL_EXPORTER_OTLP_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT';
  const timeout = value(env, timeoutVariable);
  if (timeout !== undefined && !/^[1-9]\d*$/.test(timeout)) throw usage(`${timeoutVariable} "${timeout}" is not a whole number of milliseconds. Set e.g. ${timeoutVariable}=10000.`);
  return { url, headers, ...(timeout === undefined ? {} : { timeoutMillis: Number(timeout) }) };
}

function checkUrl(url: string, variable: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw usage(`${variable} gives the URL "${url}", which is not an http(s) URL. Set it to the collector's OTLP/HTTP address, e.g. ${variable}=http://127.0.0.1:4318.`);
  }
}

/** `key=value,key2=value2` (values percent-decoded), as the OTel variables of headers and resource attributes are written. */
function keyValueList(env: Env, variable: string): Record<string, string> | undefined {
  const text = value(env, variable);
  if (text === undefined) return undefined;
  const entries: Record<string, string> = {};
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const at = item.indexOf('=');
    const key = at < 0 ? '' : item.slice(0, at).trim();
    if (key === '') throw usage(`${variable} has the entry "${item.trim()}", which is not key=value. Write it as key=value pairs separated by commas, e.g. ${variable}=key1=value1,key2=value2.`);
    entries[key] = decodeValue(item.slice(at + 1).trim());
  }
  return entries;
}

function decodeValue(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function flag(env: Env, variable: string): boolean {
  const text = value(env, variable)?.toLowerCase();
  if (text === undefined || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw usage(`${variable} "${env[variable]}" is not true or false. Set ${variable}=true to record prompts and outputs on the model-call spans, or unset it.`);
}

/** A variable's trimmed value; blank counts as unset. */
function value(env: Env, variable: string): string | undefined {
  const text = env[variable]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function usage(message: string): AtlasError {
  return new AtlasError('usage', `Atlas: ${message}`);
}
