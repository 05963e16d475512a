# syntax=docker/dockerfile:1
# Agora's image: the server (bundled by esbuild into dist/server/main.mjs and run by Node, as
# `npm start` does; ADR 0079) with the web app built in. Multi-stage: the build tools stay out of the final image, which runs as the unprivileged
# `node` user. deploy/compose.yaml runs three of these behind HAProxy (docs/production.md).

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/stripe-sandbox/package.json packages/stripe-sandbox/
RUN npm ci --no-audit --no-fund --loglevel=error

# The web app (Vite): dist/web, served by the server; and the server's bundle, dist/server.
FROM deps AS web
COPY . .
RUN npx vite build --logLevel warn && node scripts/build-server.mjs

# Runtime dependencies only (tsx is one: the server runs from its TypeScript sources).
FROM node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/stripe-sandbox/package.json packages/stripe-sandbox/
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_FORMAT=json \
    SHUTDOWN_DELAY_MS=2000
WORKDIR /app
COPY --from=runtime-deps /app/node_modules node_modules
COPY package.json tsconfig.json ./
COPY packages packages
COPY drizzle drizzle
COPY src/server src/server
COPY src/shared src/shared
COPY --from=web /app/dist/web dist/web
COPY --from=web /app/dist/server dist/server
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# The process answers and its database is reachable (the balancer checks the same route).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: 503 for SHUTDOWN_DELAY_MS (the balancer takes the instance out), the
# requests in flight finish, then the process exits 0. Give it more than that before SIGKILL.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/server/main.mjs"]
