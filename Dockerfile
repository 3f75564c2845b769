# One image for both services (ledger-service and mcp-gateway); docker-compose.yml picks the command.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY ledger-service/package.json ledger-service/
COPY mcp-gateway/package.json mcp-gateway/
COPY e2e/package.json e2e/
# tsx (a dev dependency) runs the TypeScript sources, so the full install is needed
RUN npm ci --include=dev && npm cache clean --force
COPY shared shared
COPY ledger-service ledger-service
COPY mcp-gateway mcp-gateway
COPY scripts scripts
COPY tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
