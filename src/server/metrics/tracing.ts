import type { FastifyPluginCallback, FastifyRequest } from 'fastify';

/** Where traces go (OTEL_EXPORTER_OTLP_ENDPOINT) and the service they are from (OTEL_SERVICE_NAME). */
export interface TracingConfig {
  endpoint: string;
  serviceName: string;
}

/** The running tracer: a Fastify plugin that makes each request a span, and the flush for shutdown. */
export interface Tracing {
  plugin: FastifyPluginCallback;
  /** Sends the spans still batched and stops the exporter (graceful shutdown, main.ts). */
  shutdown(): Promise<void>;
}

/** The span attribute that carries the request's id (the `x-request-id` echoed, and `reqId` in the logs). */
export const REQUEST_ID_ATTRIBUTE = 'http.request.id';

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON), ADR 0063. Called by main.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK is imported here, on demand, so a server
 * without it loads and patches nothing. The provider is registered globally (context
 * manager and W3C propagation: an incoming `traceparent` is continued) before the app is
 * built; @fastify/otel then makes each request one SERVER span named by its method and
 * route pattern (`GET /api/courses/:courseId`, never the raw URL), with the status code and
 * the request id.
 */
export async function startTracing(config: TracingConfig): Promise<Tracing> {
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    { FastifyOtelInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@fastify/otel'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    // Batched (OTEL_BSP_* tune it): a request never waits on the collector.
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  const instrumentation = new FastifyOtelInstrumentation({
    // Hook spans add little and cost a span each: one span per request, one per handler.
    instrumentHooks: false,
    // A balancer's health checks (every 500 ms, from each balancer) would bury the requests.
    ignorePaths: (route) => route.url.startsWith('/api/health'),
    requestHook: (span, request) => nameRequestSpan(span, request),
  });
  instrumentation.setTracerProvider(provider);
  return {
    plugin: instrumentation.plugin(),
    shutdown: () => provider.shutdown(),
  };
}

interface NamedSpan {
  updateName(name: string): unknown;
  setAttribute(key: string, value: string): unknown;
}

/** `GET /api/courses/:courseId`: the route's pattern (bounded, no ids); the path without its query. */
function nameRequestSpan(span: NamedSpan, request: FastifyRequest) {
  const route = request.routeOptions.url;
  span.updateName(route ? `${request.method} ${route}` : request.method);
  span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
  // @fastify/otel records request.url, query string included: a token in a link stays out of the trace.
  span.setAttribute('url.path', request.url.split('?')[0]);
}
