// RFC 8707 resource indicators, as the authorize and token endpoints check them.

/**
 * RFC 8707 resource indicators this instance issues tokens for: its MCP endpoint (which MCP clients
 * must name) and its API, each as the public URL writes it.
 */
export function targetResources(publicUrl: string): string[] {
  return [`${publicUrl}/mcp`, `${publicUrl}/api/v1`, publicUrl, `${publicUrl}/`];
}

/** The `resource` parameter's problem (RFC 8707 section 2), or undefined when it names this instance. */
export function resourceProblem(value: unknown, resources: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return 'resource: name one resource';
  if (typeof value !== 'string' || !resources.includes(value))
    return `resource: this server issues tokens for ${resources[0]} and ${resources[1]} only`;
  return undefined;
}
