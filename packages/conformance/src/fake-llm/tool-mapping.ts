import path from 'node:path';
import type { PlannedToolCall } from './assistant-reply.js';
import type { DeclaredTool, JsonSchema } from './conversation-view.js';
import { buildAddFilePatch, buildShellWriteScript, type FileToWrite } from './file-write-commands.js';
import {
  requiredProperties,
  schemaEnum,
  schemaItems,
  schemaProperties,
  schemaType,
  synthesizeFromSchema,
} from './json-schema.js';

/**
 * Maps a scripted "write file X with content Y" onto whichever tool the client declared, by reading the
 * tools' names and argument schemas. Strategies are tried in order (a dedicated write tool first, a shell
 * last); the first tool that fits wins. Add a strategy here when a client writes files some other way.
 */

/** Where to put relative paths for tools that demand absolute ones. */
export interface FileWriteContext {
  /** The client's workspace directory, if known (options, turn, or found in the request's prompt). */
  workspaceDir: string | undefined;
}

/** One way of writing files through a kind of tool. */
export interface FileWriteStrategy {
  /** Short name recorded with the request, e.g. `write-tool`, `apply-patch`, `shell`. */
  name: string;
  /** Which tools it recognises, in words, for the README and error messages. */
  description: string;
  /** Whether this tool can be used this way. */
  fits(tool: DeclaredTool): boolean;
  /** The tool calls that write the files, or a sentence saying why it cannot. */
  build(
    files: readonly FileToWrite[],
    tool: DeclaredTool,
    context: FileWriteContext,
  ): PlannedToolCall[] | string;
}

/** The result of `mapFileWrites`: the calls to make, or the reason no declared tool can write files. */
export type FileWriteMapping =
  | { ok: true; toolCalls: PlannedToolCall[]; strategy: string; toolName: string }
  | { ok: false; problem: string };

const PATH_PROPERTIES = [
  'file_path',
  'filePath',
  'absolute_path',
  'absolutePath',
  'path',
  'filename',
  'file_name',
  'fileName',
  'target_file',
  'targetFile',
  'file',
];
const CONTENT_PROPERTIES = [
  'content',
  'contents',
  'file_text',
  'fileText',
  'text',
  'data',
  'new_content',
  'body',
];
const PATCH_PROPERTIES = ['input', 'patch', 'patchText', 'patch_text', 'diff'];
const COMMAND_PROPERTIES = ['command', 'cmd', 'script', 'commands', 'argv'];
const ACTION_PROPERTIES = ['action', 'operation', 'op', 'type', 'mode'];
const PREFERRED_ACTIONS = ['write', 'create', 'upsert', 'add', 'put', 'overwrite', 'replace'];
const NOT_A_WRITE_TOOL = /edit|replace|patch|append|insert|delete|remove|read|search|grep|list|view/i;
const SHELL_TOOL = /shell|bash|command|terminal|exec/i;

/** The strategies, in the order they are tried. */
export const fileWriteStrategies: readonly FileWriteStrategy[] = [
  {
    name: 'write-tool',
    description:
      'a function tool named like write/create/save with a path property (file_path, filePath, absolute_path, ' +
      'path…) and a content property (content, file_text…): Claude `Write`, OpenCode `write`, Gemini `write_file`',
    fits: (tool) =>
      tool.kind === 'function' &&
      !NOT_A_WRITE_TOOL.test(tool.name) &&
      pickProperty(tool.schema, PATH_PROPERTIES) !== undefined &&
      pickProperty(tool.schema, CONTENT_PROPERTIES) !== undefined,
    build: (files, tool, context) => {
      const pathProperty = pickProperty(tool.schema, PATH_PROPERTIES) ?? 'path';
      const contentProperty = pickProperty(tool.schema, CONTENT_PROPERTIES) ?? 'content';
      const calls: PlannedToolCall[] = [];
      for (const file of files) {
        const filePath = resolvePath(tool, pathProperty, file.path, context);
        if (filePath.problem !== undefined) return filePath.problem;
        const input = { [pathProperty]: filePath.value, [contentProperty]: file.content };
        calls.push({ name: tool.name, kind: 'function', input: fillRequired(tool.schema, input, file.path) });
      }
      return calls;
    },
  },
  {
    name: 'text-editor',
    description: "Anthropic's provider-defined text editor tool (`text_editor_*`), with its `create` command",
    fits: (tool) => tool.kind === 'provider' && (tool.providerType ?? '').startsWith('text_editor'),
    build: (files, tool) =>
      files.map((file) => ({
        name: tool.name,
        kind: 'function',
        input: { command: 'create', path: file.path, file_text: file.content },
      })),
  },
  {
    name: 'submit-files',
    description: 'a function tool with an array of {path, content[, action]} objects, e.g. `submit_files`',
    fits: (tool) => tool.kind === 'function' && findFileArray(tool.schema) !== undefined,
    build: (files, tool, context) => {
      const fileArray = findFileArray(tool.schema);
      if (fileArray === undefined) return `tool "${tool.name}" has no array of files`;
      const items: Record<string, unknown>[] = [];
      for (const file of files) {
        const filePath = resolvePath(tool, fileArray.pathProperty, file.path, context, fileArray.item);
        if (filePath.problem !== undefined) return filePath.problem;
        const item: Record<string, unknown> = {
          [fileArray.pathProperty]: filePath.value,
          [fileArray.contentProperty]: file.content,
        };
        if (fileArray.action !== undefined) item[fileArray.action.property] = fileArray.action.value;
        items.push(fillRequired(fileArray.item, item, file.path));
      }
      const input = fillRequired(tool.schema, { [fileArray.property]: items }, describeFiles(files));
      return [{ name: tool.name, kind: 'function', input }];
    },
  },
  {
    name: 'apply-patch',
    description:
      'a tool named like *patch*: a custom (freeform) tool takes the Codex patch as raw text, a function ' +
      'tool takes it in its one string property (input, patch, patchText…): Codex and OpenCode `apply_patch`',
    fits: (tool) =>
      /patch/i.test(tool.name) &&
      (tool.kind === 'custom' || (tool.kind === 'function' && findPatchProperty(tool.schema) !== undefined)),
    build: (files, tool) => {
      const patch = buildAddFilePatch(files);
      if (tool.kind === 'custom') return [{ name: tool.name, kind: 'custom', input: patch }];
      const property = findPatchProperty(tool.schema) ?? 'input';
      return [
        { name: tool.name, kind: 'function', input: fillRequired(tool.schema, { [property]: patch }, '') },
      ];
    },
  },
  {
    name: 'shell',
    description:
      'a shell tool (name contains shell/bash/command/exec, with a command, cmd or script property as a ' +
      "string or an argv array), or Anthropic's provider-defined `bash_*` tool: Claude `Bash`, Codex `shell`/" +
      '`shell_command`/`exec_command`, OpenCode `bash`, Gemini `run_shell_command`',
    fits: (tool) =>
      (tool.kind === 'provider' && (tool.providerType ?? '').startsWith('bash')) ||
      (tool.kind === 'function' &&
        SHELL_TOOL.test(tool.name) &&
        pickProperty(tool.schema, COMMAND_PROPERTIES, true) !== undefined),
    build: (files, tool) => {
      const script = buildShellWriteScript(files);
      if (tool.kind === 'provider')
        return [{ name: tool.name, kind: 'function', input: { command: script } }];
      const property = pickProperty(tool.schema, COMMAND_PROPERTIES, true) ?? 'command';
      const takesArgv = schemaType(schemaProperties(tool.schema)[property]) === 'array';
      const input = { [property]: takesArgv ? ['sh', '-c', script] : script };
      return [
        { name: tool.name, kind: 'function', input: fillRequired(tool.schema, input, describeFiles(files)) },
      ];
    },
  },
];

/**
 * The tool calls that make the client write `files`, using the first declared tool that fits (or the one
 * named by `via`). Never throws: a mismatch comes back as `{ ok: false, problem }` with a sentence that
 * names the declared tools, so the test can show why.
 */
export function mapFileWrites(
  files: readonly FileToWrite[],
  tools: readonly DeclaredTool[],
  options: { via?: string | undefined; workspaceDir?: string | undefined } = {},
): FileWriteMapping {
  const context: FileWriteContext = { workspaceDir: options.workspaceDir };
  const candidates = options.via === undefined ? tools : tools.filter((tool) => tool.name === options.via);
  const declared = tools.length === 0 ? 'no tools' : tools.map((tool) => tool.name).join(', ');
  if (options.via !== undefined && candidates.length === 0) {
    return {
      ok: false,
      problem: `the script asks to write files via "${options.via}", but the client declared ${declared}`,
    };
  }
  for (const strategy of fileWriteStrategies) {
    const tool = candidates.find((candidate) => strategy.fits(candidate));
    if (tool === undefined) continue;
    const built = strategy.build(files, tool, context);
    if (typeof built === 'string') return { ok: false, problem: built };
    return { ok: true, toolCalls: built, strategy: strategy.name, toolName: tool.name };
  }
  const subject = options.via === undefined ? 'no declared tool' : `the tool "${options.via}"`;
  return {
    ok: false,
    problem:
      `cannot write ${describeFiles(files)}: ${subject} looks like a write, submit-files, apply_patch or shell tool ` +
      `(the client declared ${declared}); script an explicit { toolCall } or extend fileWriteStrategies`,
  };
}

/** The first of `names` that the schema declares as a string (or untyped, or an array when allowed). */
function pickProperty(
  schema: JsonSchema | undefined,
  names: readonly string[],
  allowArray = false,
): string | undefined {
  const properties = schemaProperties(schema);
  return names.find((name) => {
    const property = properties[name];
    if (property === undefined) return false;
    const type = schemaType(property);
    return type === undefined || type === 'string' || (allowArray && type === 'array');
  });
}

function findPatchProperty(schema: JsonSchema | undefined): string | undefined {
  const properties = schemaProperties(schema);
  const strings = Object.keys(properties).filter((name) => schemaType(properties[name]) === 'string');
  return (
    PATCH_PROPERTIES.find((name) => strings.includes(name)) ?? (strings.length === 1 ? strings[0] : undefined)
  );
}

interface FileArray {
  property: string;
  item: JsonSchema;
  pathProperty: string;
  contentProperty: string;
  action: { property: string; value: string } | undefined;
}

function findFileArray(schema: JsonSchema | undefined): FileArray | undefined {
  for (const [property, propertySchema] of Object.entries(schemaProperties(schema))) {
    if (schemaType(propertySchema) !== 'array') continue;
    const item = schemaItems(propertySchema);
    const pathProperty = pickProperty(item, PATH_PROPERTIES);
    const contentProperty = pickProperty(item, CONTENT_PROPERTIES);
    if (item === undefined || pathProperty === undefined || contentProperty === undefined) continue;
    return { property, item, pathProperty, contentProperty, action: pickAction(item) };
  }
  return undefined;
}

function pickAction(item: JsonSchema): { property: string; value: string } | undefined {
  const properties = schemaProperties(item);
  const property = ACTION_PROPERTIES.find((name) => properties[name] !== undefined);
  if (property === undefined) return undefined;
  const choices = schemaEnum(properties[property]).filter(
    (value): value is string => typeof value === 'string',
  );
  if (choices.length === 0) return { property, value: 'write' };
  const preferred = PREFERRED_ACTIONS.find((action) => choices.includes(action));
  return { property, value: preferred ?? choices[0] ?? 'write' };
}

/** Whether a path property wants absolute paths, judged from its name and the descriptions around it. */
function wantsAbsolutePath(tool: DeclaredTool, property: string, owner: JsonSchema | undefined): boolean {
  const propertySchema = schemaProperties(owner ?? tool.schema)[property];
  const description = typeof propertySchema?.description === 'string' ? propertySchema.description : '';
  return /absolute/i.test(property) || /absolute/i.test(description);
}

function resolvePath(
  tool: DeclaredTool,
  property: string,
  filePath: string,
  context: FileWriteContext,
  owner?: JsonSchema,
): { value: string; problem?: undefined } | { value?: undefined; problem: string } {
  if (path.isAbsolute(filePath) || !wantsAbsolutePath(tool, property, owner)) return { value: filePath };
  if (context.workspaceDir === undefined) {
    return {
      problem:
        `tool "${tool.name}" wants an absolute ${property} but "${filePath}" is relative and the workspace ` +
        'directory is unknown: pass workspaceDir to startFakeLlm or the turn, or script an absolute path',
    };
  }
  return { value: path.join(context.workspaceDir, filePath) };
}

/** Fills required properties the mapping did not set, so strict clients accept the arguments. */
function fillRequired(
  schema: JsonSchema | undefined,
  input: Record<string, unknown>,
  subject: string,
): Record<string, unknown> {
  const properties = schemaProperties(schema);
  for (const name of requiredProperties(schema)) {
    if (name in input) continue;
    const descriptive = /description|reason|justification|explanation|summary|title/i.test(name);
    input[name] =
      descriptive && schemaType(properties[name]) !== 'array'
        ? `Write ${subject}`
        : synthesizeFromSchema(properties[name]);
  }
  return input;
}

function describeFiles(files: readonly FileToWrite[]): string {
  return files.map((file) => file.path).join(', ');
}
