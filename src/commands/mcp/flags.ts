// The flags of `agentctl mcp` that choose what the server offers and what secrets it may hand out,
// parsed into the engine's options (src/mcp/server.ts).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParseInput } from '../../cli/define.js';
import { parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import { isOwnVariable, VARIABLE_NAME, type SecretPolicy } from '../../core/secrets.js';
import { UsageError } from '../../errors.js';
import { TOOL_NAMES, selectTools } from '../../mcp/catalog.js';
import { TOOLSETS, type Toolset } from '../../mcp/tool.js';
import { DEFAULT_TOOLSETS } from '../../mcp/options.js';
import type { ServerOptions } from '../../mcp/server.js';

/**
 * The longest wait a tasks_wait call may ask for unless --max-wait says otherwise, seconds: under the
 * 60 s after which clients end a request (a model calls again to wait longer).
 */
export const DEFAULT_MAX_WAIT_SECONDS = 50;

export interface McpOptions extends ServerOptions {
  httpPort?: number;
}

/** A comma-separated list flag, each name known; undefined when not given. */
function names(input: ParseInput, name: string, flag: string, known: readonly string[]): string[] | undefined {
  const text = input.string(name);
  if (text === undefined) return undefined;
  const list = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`${flag} needs at least one name`, `the names are: ${known.join(', ')}`);
  const unknown = list.filter((entry) => !known.includes(entry));
  if (unknown.length > 0) throw new UsageError(`${flag}: no ${flag === '--toolsets' ? 'toolset' : 'tool'} named ${unknown.join(', ')}`, `the names are: ${known.join(', ')}`);
  return list;
}

const ALLOW_EXAMPLES = 'for example --allow-secret-env SHOP_PASSWORD, SHOP_*, or SHOP_PASSWORD@https://shop.example,https://login.shop.example';

/** One --allow-secret-env: NAME or PREFIX*, then optionally @ and the only sites it may be sent to, comma-separated. */
function allowEntry(entry: string): { entry: string; prefix: boolean; name: string; sites?: string[] } {
  const at = entry.indexOf('@');
  const variable = at === -1 ? entry : entry.slice(0, at);
  const prefix = variable.endsWith('*');
  const name = prefix ? variable.slice(0, -1) : variable;
  if (!VARIABLE_NAME.test(name)) throw new UsageError(`--allow-secret-env "${entry}" is not a variable name or a prefix ending in *`, ALLOW_EXAMPLES);
  if (isOwnVariable(name)) throw new UsageError(`--allow-secret-env ${name}: agentctl's own credentials are never task secrets`);
  if (at === -1) return { entry: variable, prefix, name };
  const sites = entry.slice(at + 1).split(',').map((site) => site.trim());
  if (sites.some((site) => site === '' || /\s/.test(site))) {
    throw new UsageError(`--allow-secret-env "${entry}": name the sites after @, comma-separated, without spaces`, ALLOW_EXAMPLES);
  }
  return { entry: variable, prefix, name, sites };
}

/**
 * --allow-secret-env NAME, PREFIX*, NAME@site,site or PREFIX*@site (repeatable), and --secrets-dir
 * DIR. An entry given with sites and without allows any site; given twice with sites, both lists.
 */
function secretPolicy(input: ParseInput): SecretPolicy {
  const names = new Set<string>();
  const prefixes = new Set<string>();
  const sites = new Map<string, string[] | 'any'>();
  for (const { entry, prefix, name, sites: only } of input.list('allowSecretEnv').map(allowEntry)) {
    (prefix ? prefixes : names).add(name);
    const known = sites.get(entry) ?? [];
    sites.set(entry, known === 'any' || only === undefined ? 'any' : [...new Set([...known, ...only])]);
  }
  const envSites = new Map([...sites].filter((pair): pair is [string, string[]] => pair[1] !== 'any'));
  const policy: SecretPolicy = { envNames: [...names], envPrefixes: [...prefixes], ...(envSites.size > 0 ? { envSites } : {}) };
  const dir = input.string('secretsDir');
  if (dir !== undefined) {
    const path = resolve(dir);
    const isDir = (() => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    })();
    if (!isDir) throw new UsageError(`--secrets-dir ${dir} is not a folder`, 'make a folder that holds only the secrets files a model may use, e.g. mkdir -m 700 ~/.agentctl-secrets');
    return { ...policy, directory: path };
  }
  return policy;
}

/** --toolsets: names, `default` (the toolsets offered without the flag) and `all`. */
function toolsets(input: ParseInput): Toolset[] | undefined {
  const list = names(input, 'toolsets', '--toolsets', [...TOOLSETS, 'default', 'all']);
  if (list === undefined) return undefined;
  const expanded = list.flatMap((name) => (name === 'all' ? TOOLSETS : name === 'default' ? DEFAULT_TOOLSETS : [name as Toolset]));
  return [...new Set(expanded)];
}

export function parseMcpOptions(input: ParseInput): McpOptions {
  const http = input.string('http');
  const maxWait = input.string('maxWait');
  const wait = input.string('wait');
  const prefix = input.string('toolPrefix');
  if (prefix !== undefined && !/^[A-Za-z][A-Za-z0-9_-]{0,30}$/.test(prefix)) {
    throw new UsageError(`--tool-prefix "${prefix}" must be a letter, then up to 30 letters, digits, _ or -`, 'for example --tool-prefix gobii_');
  }
  const allow = names(input, 'tools', '--tools', TOOL_NAMES());
  const exclude = names(input, 'excludeTools', '--exclude-tools', TOOL_NAMES());
  const maxWaitSeconds = maxWait === undefined ? DEFAULT_MAX_WAIT_SECONDS : parseSecondsFlag(maxWait, '--max-wait', 1, 3600);
  const options: McpOptions = {
    readOnly: input.flag('readOnly'),
    toolsets: toolsets(input),
    allow,
    exclude,
    prefix,
    maxWaitSeconds,
    waitSeconds: wait === undefined ? undefined : parseSecondsFlag(wait, '--wait', 1, maxWaitSeconds),
    secrets: secretPolicy(input),
    agentsDir: resolve(input.string('agentsDir') ?? 'agents'),
    httpPort: http === undefined ? undefined : parseIntegerFlag(http, '--http', 0, 65535),
  };
  if (selectTools(options).length === 0) {
    throw new UsageError('--read-only, --toolsets, --tools and --exclude-tools leave no tool to offer', 'drop --read-only, or name tools of the toolsets given');
  }
  return options;
}
