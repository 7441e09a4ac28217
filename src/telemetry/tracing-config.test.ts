import { describe, expect, it } from 'vitest';
import { tracingConfig } from './tracing-config.ts';

describe('tracingConfig', () => {
  it('is off without an endpoint or an exporter, when disabled, and with OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingConfig({})).toBeUndefined();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('sends OTLP to <endpoint>/v1/traces, with the headers, timeout, service name and resource attributes of the environment', () => {
    expect(
      tracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team=docs',
        OTEL_EXPORTER_OTLP_TIMEOUT: '5000',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.name=ignored',
        OTEL_SERVICE_NAME: 'atlas-docs',
        ATLAS_TRACE_CONTENT: 'true',
      }),
    ).toEqual({
      exporters: ['otlp'],
      otlp: { url: 'http://collector:4318/v1/traces', headers: { authorization: 'Bearer abc', 'x-team': 'docs' }, timeoutMillis: 5000 },
      serviceName: 'atlas-docs',
      resourceAttributes: { 'deployment.environment.name': 'prod', 'service.name': 'ignored' },
      recordContent: true,
    });
  });

  it('takes the traces endpoint as it is, the traces variables over the general ones, and service.name of the resource attributes', () => {
    expect(
      tracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/custom',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=2',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource',
      }),
    ).toEqual({
      exporters: ['otlp'],
      otlp: { url: 'https://traces.example.com/custom', headers: { b: '2' } },
      serviceName: 'from-resource',
      resourceAttributes: { 'service.name': 'from-resource' },
      recordContent: false,
    });
  });

  it('exports to the console, or to the default OTLP endpoint, when OTEL_TRACES_EXPORTER names them', () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'console' })).toEqual({ exporters: ['console'], serviceName: 'atlas', resourceAttributes: {}, recordContent: false });
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp, console' })?.otlp).toEqual({ url: 'http://localhost:4318/v1/traces', headers: {} });
  });

  it('refuses what it cannot do, naming the variable, the value and the fix', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    const cases: Array<[Record<string, string>, string]> = [
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'Atlas: OTEL_TRACES_EXPORTER "zipkin" names "zipkin", which Atlas does not export to. Use otlp (OTLP over HTTP), console, or none (docs/observability.md).'],
      [{ OTEL_TRACES_EXPORTER: 'none,otlp' }, 'Atlas: OTEL_TRACES_EXPORTER "none,otlp" names "none" with other exporters. Use none alone (no traces), or list otlp and/or console.'],
      [{ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'Atlas: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported: Atlas sends OTLP over HTTP (JSON bodies). Set it to http/json, or unset it, and point the endpoint at the collector\'s HTTP port (4318).'],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: '127.0.0.1:4318' }, 'Atlas: OTEL_EXPORTER_OTLP_ENDPOINT gives the URL "127.0.0.1:4318/v1/traces", which is not an http(s) URL. Set it to the collector\'s OTLP/HTTP address, e.g. OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318.'],
      [{ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'token' }, 'Atlas: OTEL_EXPORTER_OTLP_HEADERS has the entry "token", which is not key=value. Write it as key=value pairs separated by commas, e.g. OTEL_EXPORTER_OTLP_HEADERS=key1=value1,key2=value2.'],
      [{ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '10s' }, 'Atlas: OTEL_EXPORTER_OTLP_TRACES_TIMEOUT "10s" is not a whole number of milliseconds. Set e.g. OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=10000.'],
      [{ ...endpoint, ATLAS_TRACE_CONTENT: 'yes' }, 'Atlas: ATLAS_TRACE_CONTENT "yes" is not true or false. Set ATLAS_TRACE_CONTENT=true to record prompts and outputs on the model-call spans, or unset it.'],
    ];
    for (const [env, message] of cases) expect(() => tracingConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
