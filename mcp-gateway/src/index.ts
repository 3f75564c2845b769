export { loadConfig, ConfigError, type GatewayConfig } from './config.ts';
export { startGateway, type RunningGateway } from './server.ts';
export { loadKeys } from './keys.ts';
