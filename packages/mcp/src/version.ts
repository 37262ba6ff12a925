/** The version of the tool layer, given to MCP clients in the server's `serverInfo`. */
export const VERSION = '0.1.0';
