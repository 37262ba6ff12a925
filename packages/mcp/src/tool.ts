import type { AssayClient } from '@assay/client';
import type { Scope } from '@assay/schema';
import type { Static, TObject } from 'typebox';

/** What a tool's run sees besides its arguments. */
export interface ToolContext {
  client: AssayClient;
}

/** The SDK's tool annotations: hints a client shows to its user and uses to ask for consent. */
export interface ToolAnnotations {
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** The tool may delete or overwrite data, or send mail that cannot be called back. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches beyond the Assay instance (e-mail to people). */
  openWorldHint?: boolean;
}

/** A link the result adds beside its structured content (a report's PDF as a resource). */
export interface ResourceLink {
  uri: string;
  name: string;
  title?: string;
  mimeType: string;
  description?: string;
}

/** What a run gives back: the structured content, and optionally links to resources. */
export interface ToolResult<O> {
  structured: O;
  links?: ResourceLink[];
}

/**
 * One tool of the layer: its name (camelCase), what a model reads about it, the JSON Schemas of its
 * arguments and of its structured result, and the work. A tool whose `readOnlyHint` is false writes,
 * and needs client credentials (an API key offers the read-only tools only).
 */
export interface Tool<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * The scope families every use of the tool calls: a server for a token (the instance's `/mcp`)
   * offers the tool only when the token holds them all. A call that reaches a further family only
   * for some arguments (a member's reports) is refused with the API's 403 then, explained.
   */
  scopes: readonly Scope[];
  run(args: Static<I>, context: ToolContext): Promise<ToolResult<Static<O>>>;
}

/** Declares a tool with its argument and result types inferred from the schemas. */
export function tool<I extends TObject, O extends TObject>(definition: Tool<I, O>): Tool {
  return definition as unknown as Tool;
}

/**
 * A mistake in the arguments that only the tool can see (a confirmation without its recipients, a
 * move to the group the member is in ...): answered as a tool error with this message.
 */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}
