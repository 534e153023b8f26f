// The shape of src/ that docs/ARCHITECTURE.md promises, measured from the code (run by `npm run lint`):
// - no import cycles (static, dynamic and type-only imports alike: each is an edge a reader follows);
// - no command folder (src/commands/<noun>/) importing another one: what two commands share lives
//   below them (src/core, an engine, src/api) or in src/commands/common;
// - files under src/commands/ at most 250 lines;
// - functions (declarations, methods, arrows, function expressions) at most 100 lines, a nested
//   function counted inside its parent too;
// - words only at the faces: no string in src/api or src/contract names a flag (`--word`) or an
//   `agentctl <command>` (the library and the MCP server read those layers' messages; each face adds
//   its own hints: the command line's are src/cli/api-words.ts and the `what` it passes to checks);
// - one wait loop: a wait for a task becomes polls only in src/core/wait.ts (waitForTask is declared
//   and called there alone, and no other file polls a task with a single-try GET), so every face's
//   wait caps each poll by its deadline;
// - one builder per request body: only src/core makes a task's, a persistent agent's or a browser-use
//   agent's body (an object literal typed, asserted or `satisfies` TaskBody, PersistentAgentBody or
//   LegacyAgentBody), so every face's input is checked by the same code (src/core/*-body.ts); the
//   faces hand the core their fields and word its InputError;
// - one owner of terminal decisions: only src/output/terminal.ts reads NO_COLOR, FORCE_COLOR,
//   CLICOLOR(_FORCE), TERM, CI or a stream's isTTY, so colour, width, spinners, prompts and the pager
//   follow one set of rules (everything else asks its TerminalDecisions).
// The files are only parsed (TypeScript's parser, no type checking), so it takes well under a second.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

// require(), not import: importing the 9 MB CommonJS file as an ES module scans it for its export
// names first, a second of the check's time.
const ts = createRequire(import.meta.url)('typescript');

const MAX_COMMAND_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 100;

// Exempt for good: code that is a template of another program's text, not agentctl's logic.
const EXEMPT_FUNCTIONS = new Set([
  // The completion scripts for bash and fish, written out as one template each.
  'src/completion/bash.ts bashScript',
  'src/completion/fish.ts fishScript',
]);

// Strings below the faces that name a flag of another program, not of agentctl.
const EXEMPT_WORDS = new Set([
  // V8's flag, set for the connection pool's code (see the file).
  'src/api/undici-pool.ts --liftoff-only',
]);
const FACE_WORD_LAYERS = /^src\/(api|contract)\//;
const FLAG = /(?:^|[^\w-])(--[a-z][a-z0-9-]*)/;
const COMMAND = /`agentctl [a-z][a-z-]*|\bagentctl (?:agents|tasks|persistent|schedule-preview|auth|config|api|emulator|webhook-listen|mcp|doctor|version|completion|help)\b/;
/** The request bodies only src/core builds, and the layers that may name them in an object's type (the API's routes, the emulator's twin). */
const BODY_TYPES = new Set(['TaskBody', 'PersistentAgentBody', 'LegacyAgentBody']);
const BODY_BUILDERS = /^src\/core\//;
/** The one file that reads the environment's and the streams' terminal facts, and what it reads. */
const TERMINAL_OWNER = 'src/output/terminal.ts';
const TERMINAL_FACTS = new Set(['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'TERM', 'CI', 'isTTY']);
/** The one file where a wait becomes polls. */
const WAIT_LOOP_FILE = 'src/core/wait.ts';

// Known offenders, allowed while a piece of work reshapes them (none today: issue 32 emptied the
// lists). A listed entry that no longer offends is reported too, so the lists only ever shrink.
const KNOWN_OFFENDERS = {
  cycles: [],
  // By the importing folder.
  crossCommandImports: [],
  commandFiles: [],
  functions: [],
};

// Usage: node scripts/check-structure.mjs [ROOT]: another tree (a test's fixture) is measured
// without this repository's list of known offenders.
const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const knownOffenders = process.argv[2] === undefined ? KNOWN_OFFENDERS : { cycles: [], crossCommandImports: [], commandFiles: [], functions: [] };
const SOURCE = /\.(ts|mts|cts)$/;
const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
  .sort();
const known = new Set(files);

/** The repository file an import specifier names, or undefined for a package or a file outside src/. */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(root, resolve(root, dirname(from), specifier)).split(sep).join('/');
  for (const candidate of [path.replace(/\.(m|c)?js$/, '.$1ts'), path, `${path}.ts`, `${path}/index.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

const imports = new Map();
const functions = [];
const faceWords = [];
const waitLoops = [];
const bodyBuilders = [];
const terminalReads = [];
const commandFileLines = new Map();
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const targets = new Set();
  const visit = (node, parent) => {
    let specifier;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifier = node.moduleSpecifier.text;
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      specifier = node.arguments[0].text;
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifier = node.argument.literal.text;
    }
    const target = specifier === undefined ? undefined : resolveImport(file, specifier);
    if (target) targets.add(target);
    if (FACE_WORD_LAYERS.test(file) && isText(node) && !specifierOf(node, parent)) {
      const flag = FLAG.exec(node.text)?.[1];
      const said = flag ?? COMMAND.exec(node.text)?.[0];
      if (said && !EXEMPT_WORDS.has(`${file} ${said}`)) faceWords.push({ file, line: lineOf(source, node), said });
    }
    const fact = file === TERMINAL_OWNER ? undefined : terminalFact(node);
    if (fact) terminalReads.push({ file, line: lineOf(source, node), fact });
    if (file !== WAIT_LOOP_FILE && isWaitLoop(node, source)) waitLoops.push({ file, line: lineOf(source, node) });
    const built = BODY_BUILDERS.test(file) ? undefined : bodyBuilt(node);
    if (built) bodyBuilders.push({ file, line: lineOf(source, node), built });
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ file, name: functionName(node, parent, source), lines: last - first + 1, line: first + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  visit(source, undefined);
  imports.set(file, targets);
  if (file.startsWith('src/commands/')) commandFileLines.set(file, text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
}

/** The terminal fact an expression reads (`env.NO_COLOR`, `env['TERM']`, `stream.isTTY`), if any. */
function terminalFact(node) {
  if (ts.isPropertyAccessExpression(node) && TERMINAL_FACTS.has(node.name.text)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && TERMINAL_FACTS.has(node.argumentExpression.text)) return node.argumentExpression.text;
  return undefined;
}

/** A piece of a string: a literal, or the text parts of a template. */
function isText(node) {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
}

/** Whether a string is an import's module name (not words anybody reads). */
function specifierOf(node, parent) {
  return parent !== undefined && (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword));
}

function lineOf(source, node) {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** A wait loop of its own: waitForTask declared or called, or a task polled with a single-try GET. */
function isWaitLoop(node, source) {
  if (ts.isFunctionDeclaration(node) && node.name?.text === 'waitForTask') return true;
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression.getText(source);
  if (callee === 'waitForTask') return true;
  return callee === 'tasks.get' && node.arguments.some((argument) => /\bretries:\s*0\b/.test(argument.getText(source)));
}

/** The body type an object literal is made as here (`const body: TaskBody = {}`, `{...} as TaskBody`, `satisfies`), if any. */
function bodyBuilt(node) {
  const named = (type) => (type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && BODY_TYPES.has(type.typeName.text) ? type.typeName.text : undefined);
  const literal = (expression) => {
    while (expression && ts.isParenthesizedExpression(expression)) expression = expression.expression;
    return expression !== undefined && ts.isObjectLiteralExpression(expression);
  };
  if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) && literal(node.initializer)) return named(node.type);
  if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) && literal(node.expression)) return named(node.type);
  return undefined;
}

/** A function's name as a reader would search for it: its own, or the variable, property or method it is assigned to. */
function functionName(node, parent, source) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(source);
  return '(anonymous)';
}

/** Each cycle once, as the edge that closes it (found by depth-first search, strongly connected components aside). */
function findCycles() {
  const cycles = [];
  const state = new Map(); // file -> 'open' | 'done'
  const stack = [];
  const walk = (file) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of [...imports.get(file)].sort()) {
      if (state.get(target) === 'open') cycles.push(stack.slice(stack.indexOf(target)).concat(target));
      else if (!state.has(target)) walk(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) walk(file);
  return cycles;
}

/** `src/commands/<noun>/` of a file inside a command folder (not the shared src/commands/common/). */
function commandFolder(file) {
  const match = /^src\/commands\/([^/]+)\//.exec(file);
  return match && match[1] !== 'common' ? `src/commands/${match[1]}/` : undefined;
}

const problems = [];
const used = new Set();
const allowed = (list, key) => {
  if (!knownOffenders[list].includes(key)) return false;
  used.add(`${list}:${key}`);
  return true;
};

for (const cycle of findCycles()) {
  // The edge named in the allow-list: the cycle's closing edge in either direction.
  const edges = cycle.slice(0, -1).map((file, index) => `${file} -> ${cycle[index + 1]}`);
  if (edges.some((edge) => allowed('cycles', edge))) continue;
  problems.push(`import cycle: ${cycle.join(' -> ')}`);
}
for (const [file, targets] of imports) {
  const folder = commandFolder(file);
  if (!folder) continue;
  for (const target of targets) {
    const other = commandFolder(target);
    if (other && other !== folder && !allowed('crossCommandImports', folder)) problems.push(`${file} imports ${target}: a command folder imports another (move what they share below them)`);
  }
}
for (const [file, lines] of commandFileLines) {
  if (lines > MAX_COMMAND_FILE_LINES && !allowed('commandFiles', file)) problems.push(`${file} has ${lines} lines, over ${MAX_COMMAND_FILE_LINES} for a command file`);
}
for (const { file, name, lines, line } of functions) {
  const key = `${file} ${name}`;
  if (lines > MAX_FUNCTION_LINES && !EXEMPT_FUNCTIONS.has(key) && !allowed('functions', key)) problems.push(`${file}:${line} ${name} has ${lines} lines, over ${MAX_FUNCTION_LINES} for a function`);
}
for (const { file, line, said } of faceWords) {
  problems.push(`${file}:${line} names ${said}: below the faces no string names a flag or an agentctl command (the face adds its hint: src/api/words.ts)`);
}
for (const { file, line, built } of bodyBuilders) {
  problems.push(`${file}:${line} builds a ${built} itself: only src/core builds request bodies (hand the fields to its builder, src/core/*-body.ts)`);
}
for (const { file, line, fact } of terminalReads) {
  problems.push(`${file}:${line} reads ${fact}: terminal decisions have one owner, ${TERMINAL_OWNER} (ask terminalOf(io) or ctx.tty)`);
}
for (const { file, line } of waitLoops) {
  problems.push(`${file}:${line} waits for a task itself: the one wait loop is ${WAIT_LOOP_FILE} (call waitForTaskEnd)`);
}
for (const [list, keys] of Object.entries(knownOffenders)) {
  for (const key of keys) if (!used.has(`${list}:${key}`)) problems.push(`KNOWN_OFFENDERS.${list} lists "${key}", which no longer offends: take it off the list`);
}

if (problems.length > 0) {
  console.error(`${problems.length} structure problem(s) (scripts/check-structure.mjs says why each rule exists):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `structure: ${files.length} source files, no import cycles or cross-command imports, command files <= ${MAX_COMMAND_FILE_LINES} lines, functions <= ${MAX_FUNCTION_LINES} lines, ` +
    `no flag or agentctl command named in src/api or src/contract, one wait loop (${WAIT_LOOP_FILE}), request bodies built only in src/core, terminal facts read only in ${TERMINAL_OWNER}`,
);
