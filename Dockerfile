# One image for both services (ledger-service and mcp-gateway); docker-compose.yml picks the command.
# They run as compiled JavaScript (scripts/build.mjs); the image holds production dependencies only.

# The build: every dependency (esbuild is a dev dependency), then the compiled bundles.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY ledger-service/package.json ledger-service/
COPY mcp-gateway/package.json mcp-gateway/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY shared shared
COPY ledger-service ledger-service
COPY mcp-gateway mcp-gateway
COPY scripts scripts
RUN npm run build

# What runs: production dependencies and the build, no sources (so the build counts as fresh,
# scripts/compiled.mjs) and no tsx.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY ledger-service/package.json ledger-service/
COPY mcp-gateway/package.json mcp-gateway/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY scripts/compiled.mjs scripts/start.mjs scripts/
COPY ledger-service/bin ledger-service/bin
COPY mcp-gateway/bin mcp-gateway/bin
COPY --from=build /app/dist dist
COPY --from=build /app/ledger-service/dist ledger-service/dist
COPY --from=build /app/mcp-gateway/dist mcp-gateway/dist
RUN mkdir -p /data && chown node:node /data
USER node
