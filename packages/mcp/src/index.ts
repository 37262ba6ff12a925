export { ConfigError, configFromEnv, type McpConfig } from './config.js';
export { describeFailure } from './errors.js';
export { endpointOf, type HttpOptions, serveHttp } from './http.js';
export { ALL_TOOLS, type AssayMcpOptions, createAssayMcpServer } from './server.js';
export type { ResourceLink, Tool, ToolAnnotations, ToolContext, ToolResult } from './tool.js';
export { VERSION } from './version.js';
