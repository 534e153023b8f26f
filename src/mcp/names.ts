// How the running server names a tool in its own words (descriptions, summaries, hints, next_tool,
// prompts, instructions): under its --tool-prefix, and only when it offers the tool. A model told to
// call a tool the server does not offer (--toolsets, --tools, --exclude-tools, --read-only) or by a
// name without the prefix gets "no tool named ..." and has to guess.

export interface ToolNames {
  /** The name the tool `base` is offered by here, or undefined when this server does not offer it. */
  offered(base: string): string | undefined;
  /**
   * A sentence naming tools, as a tagged template whose values are tool names (base names): each named
   * as it is offered, or '' when one of them is not offered, so the sentence is left out (`||` rewords it).
   */
  say(strings: TemplateStringsArray, ...bases: string[]): string;
}

/** The names of a server offering the tools `bases` under `prefix`. */
export function toolNames(bases: Iterable<string>, prefix = ''): ToolNames {
  const offered = new Set(bases);
  return namer((base) => (offered.has(base) ? prefix + base : undefined));
}

/** Every tool as it is written, offered or not: for text no running server words (a resource read's error). */
export const TOOL_NAMES_AS_WRITTEN: ToolNames = namer((base) => base);

function namer(name: (base: string) => string | undefined): ToolNames {
  return {
    offered: name,
    say(strings, ...tools) {
      const named = tools.map(name);
      if (named.some((entry) => entry === undefined)) return '';
      return strings.reduce((text, part, index) => text + (named[index - 1] ?? '') + part);
    },
  };
}

/** Sentences joined by a space, those left out ('') dropped. */
export const sentences = (...parts: string[]): string => parts.filter(Boolean).join(' ');
