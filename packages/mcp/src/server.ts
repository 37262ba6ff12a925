/**
 * The MCP server: the tools of src/tools over one Assay client, and the report PDFs as resources.
 *
 * It is built on the SDK's low-level `Server` rather than `McpServer`: `McpServer` takes its schemas
 * as zod objects, while every wire shape of Assay is TypeBox (docs/decisions.md, "Foundations"),
 * which is JSON Schema already. So the tools declare TypeBox schemas, the server lists
 * them as they are, checks arguments with TypeBox's compiled checker, and answers as `McpServer`
 * would: structured content with its JSON as text, and tool errors (`isError`) for bad arguments and
 * refused calls, so that a model can correct itself.
 */
import type { AssayClient } from '@assay/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { describeFailure } from './errors.js';
import { reportPdfUri } from './shapes.js';
import type { Tool } from './tool.js';
import { auditTools } from './tools/audit.js';
import { campaignTools } from './tools/campaigns.js';
import { groupTools } from './tools/groups.js';
import { memberTools } from './tools/members.js';
import { reportTools } from './tools/reports.js';
import { variantTools } from './tools/variants.js';
import { VERSION } from './version.js';

/** Every tool, in the order they are listed. */
export const ALL_TOOLS: readonly Tool[] = [
  ...memberTools,
  ...groupTools,
  ...campaignTools,
  ...reportTools,
  ...variantTools,
  ...auditTools,
];

export interface AssayMcpOptions {
  client: AssayClient;
  /** Only the tools that change nothing (an API key's credentials). */
  readOnly: boolean;
  /**
   * The scope families the credentials hold (a token's, at the instance's `/mcp`): only the tools
   * they cover are offered. Left out, every tool is (`assay-mcp`, whose client asks for the
   * families it calls).
   */
  scopes?: readonly string[];
}

/** Whether credentials that may only read (or not) and hold these scopes may use the tool. */
const offered = (tool: Tool, readOnly: boolean, scopes: readonly string[] | undefined) =>
  (!readOnly || tool.annotations.readOnlyHint) &&
  (scopes === undefined || tool.scopes.every((scope) => scopes.includes(scope)));

const INSTRUCTIONS =
  'Assay is an assessment platform. Members (people, identified by memberId) are organised in a tree ' +
  'of groups (groupId). A campaign (campaignId) invites members by e-mail to answer one questionnaire ' +
  '(a variant, e.g. bigfive or leadership360) in one language; each member who completes it gets a ' +
  'personal report (reportId), and personal reports can be combined into group reports. Ids are ' +
  '10-character case-sensitive strings: take them from the find and list tools, never make them up. ' +
  'Mail is sent only by inviteCampaignMembers and remindCampaignMembers, and only after a dry run whose ' +
  'recipients the user has seen. Report PDFs are resources at assay://reports/{reportId}/pdf.';

const PDF_URI = /^assay:\/\/reports\/([0-9A-Za-z]{10})\/pdf$/;

/** A TypeBox schema as plain JSON (what the tool list sends). */
const plain = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema)) as { type: 'object'; [key: string]: unknown };

interface PreparedTool {
  tool: Tool;
  check: ReturnType<typeof Compile>;
  listed: {
    name: string;
    title: string;
    description: string;
    inputSchema: { type: 'object'; [key: string]: unknown };
    outputSchema: { type: 'object'; [key: string]: unknown };
    annotations: Tool['annotations'] & { title: string };
  };
}

function prepare(tool: Tool): PreparedTool {
  return {
    tool,
    check: Compile(tool.input),
    listed: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: plain(tool.input),
      outputSchema: plain(tool.output),
      annotations: { title: tool.title, ...tool.annotations },
    },
  };
}

/** What is wrong with the arguments, in one message naming each argument. */
function argumentProblems(prepared: PreparedTool, args: unknown): string | undefined {
  if (prepared.check.Check(args)) return undefined;
  const allowed = Object.keys(prepared.tool.input.properties);
  const problems = new Set<string>();
  for (const error of prepared.check.Errors(args)) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'boolean') continue;
    if (Array.isArray(params.additionalProperties)) {
      problems.add(
        `unknown argument ${params.additionalProperties.map((name) => `"${name}"`).join(', ')} (this tool takes ${allowed.join(', ') || 'no arguments'})`,
      );
    } else if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      problems.add(`missing ${params.requiredProperties.map((name) => `"${name}"`).join(', ')}`);
    } else {
      const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'the arguments';
      problems.add(`${where}: ${error.message}`);
    }
  }
  return `Invalid arguments for ${prepared.tool.name}: ${[...problems].join('; ')}. Nothing was done.`;
}

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** An MCP server offering Assay's tools over the given client; connect it to a transport. */
export function createAssayMcpServer({ client, readOnly, scopes }: AssayMcpOptions): Server {
  const tools = new Map(
    ALL_TOOLS.filter((tool) => offered(tool, readOnly, scopes)).map(
      (tool) => [tool.name, prepare(tool)] as const,
    ),
  );
  const listed = [...tools.values()].map((prepared) => prepared.listed);
  const server = new Server(
    { name: 'assay', title: 'Assay', version: VERSION },
    { capabilities: { tools: { listChanged: false }, resources: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const prepared = tools.get(name);
    if (!prepared) {
      const known = ALL_TOOLS.find((tool) => tool.name === name);
      const hint = !known
        ? ''
        : readOnly && !known.annotations.readOnlyHint
          ? ' (it changes data, and this server only reads: these credentials are read-only)'
          : ` (it needs the scope ${known.scopes.map((scope) => `"${scope}"`).join(' and ')}, which these credentials lack)`;
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}${hint}`);
    }
    const args = Value.Default(prepared.tool.input, structuredClone(request.params.arguments ?? {}));
    const problems = argumentProblems(prepared, args);
    if (problems) return failure(problems);
    try {
      const result = await prepared.tool.run(args as never, { client });
      return {
        content: [
          { type: 'text', text: JSON.stringify(result.structured) },
          ...(result.links ?? []).map((link) => ({ type: 'resource_link' as const, ...link })),
        ],
        structuredContent: result.structured as Record<string, unknown>,
      };
    } catch (error) {
      return failure(describeFailure(error, client.baseUrl));
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: reportPdfUri('{reportId}'),
        name: 'report-pdf',
        title: 'Report PDF',
        description: 'A report as PDF: a personal report or a group report, by its reportId.',
        mimeType: 'application/pdf',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const reportId = PDF_URI.exec(uri)?.[1];
    if (!reportId) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource ${uri}: report PDFs are at assay://reports/{reportId}/pdf`,
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = await client.reports.pdfBytes(reportId);
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, describeFailure(error, client.baseUrl));
    }
    return { contents: [{ uri, mimeType: 'application/pdf', blob: Buffer.from(bytes).toString('base64') }] };
  });

  return server;
}
