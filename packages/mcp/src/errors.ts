import { AssayError, HttpError } from '@assay/client';
import { ToolInputError } from './tool.js';

/** The API family (and OAuth scope) of a path under /api/v1. */
function family(path: string): string {
  return path.split('/')[1] ?? 'the needed';
}

/**
 * What a failed tool call tells the model: what went wrong, in words it can act on (a field to
 * correct, an id to look up, a scope to ask the operator for). Never a stack trace.
 */
export function describeFailure(error: unknown, baseUrl: string): string {
  if (error instanceof ToolInputError) return error.message;
  if (error instanceof AssayError) {
    const message = error.message || 'no reason given';
    return `Assay refused ${error.method} ${error.path}: ${message}. Nothing was changed by this call; correct the arguments and try again.`;
  }
  if (error instanceof HttpError) {
    const where = `${error.method} ${error.path}`;
    switch (error.status) {
      case 400:
      case 401:
        return `The instance refused the credentials of this tool server (${where}: HTTP ${error.status}${error.code ? ` ${error.code}` : ''}). The operator must check ASSAY_CLIENT_ID and ASSAY_CLIENT_SECRET, or ASSAY_API_KEY.`;
      case 403:
        // Two refusals share the status: a write with read-only credentials, and a missing scope.
        // Only the second is about a scope; the server's message tells them apart.
        return /read-only/i.test(error.message)
          ? `Not allowed: ${where} changes data, and the credentials of this tool server only read (an API key). Ask the operator for OAuth client credentials (ASSAY_CLIENT_ID and ASSAY_CLIENT_SECRET).`
          : `Not allowed: ${where} needs the "${family(error.path)}" scope, which the credentials of this tool server do not have. Ask the operator for a client with that scope.`;
      case 404:
        return `Not found: ${where} names something that does not exist (HTTP 404). Check the id: ids are 10-character, case-sensitive strings as given by the list and find tools.`;
      case 413:
        return `Too large: ${where} was refused (HTTP 413). Send fewer rows per call.`;
      case 429:
        return `Rate limited: ${where} was refused after waiting (HTTP 429). Wait a minute before calling again.`;
      default:
        return error.status >= 500
          ? `The Assay instance failed on ${where} (HTTP ${error.status}). It is not the arguments' fault; try again later.`
          : `${where} failed: ${error.message}`;
    }
  }
  if (
    error instanceof TypeError &&
    /fetch failed|ECONNREFUSED|ENOTFOUND/i.test(`${error.message} ${causeOf(error)}`)
  ) {
    return `Could not reach the Assay instance at ${baseUrl} (${causeOf(error) || error.message}). The operator must check ASSAY_URL and that the instance runs.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The tool failed unexpectedly: ${message}`;
}

function causeOf(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return (cause as { code?: string }).code ?? cause.message;
  return '';
}
