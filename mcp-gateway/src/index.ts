/** What runs the gateway from outside the package: `npm start` (scripts/start.ts) imports only this. */
export { loadConfig, ConfigError, type GatewayConfig } from './config.ts';
export { startGateway, type RunningGateway } from './server.ts';
export { loadKeys } from './keys.ts';
