import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv, ErrorObject } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';

// Both are CommonJS modules whose default export is the class or the plugin.
const require = createRequire(import.meta.url);
const Ajv2020: typeof Ajv = require('ajv/dist/2020.js').default;
const addFormats: FormatsPlugin = require('ajv-formats').default;

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is untyped JSON here.
type Json = Record<string, any>;

/** One exchange with the server: what was sent and what came back. */
export interface Exchange {
  method: string;
  /** The path under the server URL, with its query, e.g. `/members/AbCdEf1234?limit=1`. */
  url: string;
  contentType?: string;
  body?: unknown;
  status: number;
  responseType: string;
  responseBody: string;
}

/** What the document says of an exchange. */
export interface Verdict {
  /** The operation the request matched, as `METHOD /path/{param}`; undefined when none did. */
  operation?: string;
  /** Why the document refuses the request (empty: it accepts it). */
  request: string[];
  /** Why the document does not describe the answer (empty: it does). */
  response: string[];
}

const pointer = (...parts: string[]) =>
  `#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/**
 * Checks requests and answers against an OpenAPI 3.1 document with Ajv (JSON Schema 2020-12), as a
 * validating proxy would: the operation by method and path, the path and query parameters, the
 * body by its content type; the answer's status, content type and body.
 */
export function openapiChecker(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'doc');
  const params = new Ajv2020({ strict: false, coerceTypes: 'array', validateFormats: true });
  addFormats(params);
  params.addSchema(document, 'doc');

  const templates = Object.keys(document.paths).map((path) => ({
    path,
    // A literal segment wins over a parameter (as the router decides).
    literal: path.split('/').filter((segment) => !segment.startsWith('{')).length,
    pattern: new RegExp(`^${path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
  }));
  templates.sort((a, b) => b.literal - a.literal);

  const errorsOf = (validator: Ajv, ref: string, value: unknown) => {
    const validate = validator.getSchema(`doc${ref}`);
    if (!validate) throw new Error(`no schema at ${ref}`);
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message}`);
  };

  const mediaOf = (type: string) => type.split(';')[0]?.trim().toLowerCase() ?? '';

  return function check(exchange: Exchange): Verdict {
    const request: string[] = [];
    const response: string[] = [];
    const [pathname = '', search = ''] = exchange.url.split('?');
    const method = exchange.method.toLowerCase();
    const template = templates.find((t) => t.pattern.test(pathname) && document.paths[t.path][method]);
    if (!template) return { request: ['no operation'], response: ['no operation'] };
    const operation: Json = document.paths[template.path][method];
    const base = ['paths', template.path, method];
    const values: Record<string, Record<string, string>> = {
      path: Object.fromEntries(
        Object.entries(template.pattern.exec(pathname)?.groups ?? {}).map(([k, v]) => [
          k,
          decodeURIComponent(v),
        ]),
      ),
      query: Object.fromEntries(new URLSearchParams(search)),
    };
    (operation.parameters ?? []).forEach((parameter: Json, index: number) => {
      const value = values[parameter.in]?.[parameter.name];
      if (value === undefined) {
        if (parameter.required) request.push(`${parameter.in} ${parameter.name}: required`);
        return;
      }
      for (const problem of errorsOf(params, pointer(...base, 'parameters', String(index), 'schema'), value))
        request.push(`${parameter.in} ${parameter.name}${problem}`);
    });
    if (exchange.body !== undefined) {
      const media = mediaOf(exchange.contentType ?? '');
      const content = operation.requestBody?.content ?? {};
      if (!content[media]) request.push(`body: ${media} is not documented`);
      else if (content[media].schema) {
        const body =
          media === 'application/x-www-form-urlencoded'
            ? Object.fromEntries(new URLSearchParams(String(exchange.body)))
            : exchange.body;
        for (const problem of errorsOf(
          ajv,
          pointer(...base, 'requestBody', 'content', media, 'schema'),
          body,
        ))
          request.push(`body${problem}`);
      }
    } else if (operation.requestBody?.required) request.push('body: required');

    let answer: Json | undefined = operation.responses?.[String(exchange.status)];
    let answerRef = pointer(...base, 'responses', String(exchange.status));
    if (answer?.$ref) {
      answerRef = answer.$ref;
      answer = document.components.responses[String(answer.$ref).split('/').pop() as string];
    }
    if (!answer) {
      response.push(`status ${exchange.status} is not documented`);
    } else if (answer.content) {
      const media = mediaOf(exchange.responseType);
      if (!answer.content[media]) response.push(`${media} is not documented for ${exchange.status}`);
      else if (media === 'application/json') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(exchange.responseBody);
        } catch {
          response.push('not JSON');
        }
        if (parsed !== undefined)
          for (const problem of errorsOf(
            ajv,
            `${answerRef}/content/${pointer(media).slice(2)}/schema`,
            parsed,
          ))
            response.push(`answer${problem}`);
      }
    }
    return { operation: `${method.toUpperCase()} ${template.path}`, request, response };
  };
}
