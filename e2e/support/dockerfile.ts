import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword, its `--flag=value` options and the rest of the line. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** The ARGs declared before the first FROM, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

const FLAG = /^--([a-z-]+)=(\S+)\s+/;

/**
 * Reads a Dockerfile the way the builder splits it: comments and blank lines dropped, a line ending in `\`
 * continued on the next, each instruction's leading `--flag=value` options apart from its arguments.
 */
export function parseDockerfile(path: string): Dockerfile {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line));
  const logical: string[] = [];
  let pending = '';
  for (const line of lines) {
    const continued = /\\\s*$/.test(line);
    pending += `${continued ? line.replace(/\\\s*$/, '') : line} `;
    if (continued) continue;
    if (pending.trim()) logical.push(pending.trim().replace(/\s+/g, ' '));
    pending = '';
  }

  const dockerfile: Dockerfile = { globalArgs: {}, stages: [] };
  for (const line of logical) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const flags: Record<string, string> = {};
    let args = rest;
    for (let match = FLAG.exec(args); match; match = FLAG.exec(args)) {
      flags[match[1]!] = match[2]!;
      args = args.slice(match[0].length);
    }
    const instruction = { keyword: keyword.toUpperCase(), flags, args };
    if (instruction.keyword === 'FROM') {
      const [, from = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      dockerfile.stages.push({ name, from, instructions: [] });
    } else if (dockerfile.stages.length === 0 && instruction.keyword === 'ARG') {
      const at = args.indexOf('=');
      dockerfile.globalArgs[at < 0 ? args : args.slice(0, at)] = at < 0 ? '' : args.slice(at + 1);
    } else {
      dockerfile.stages.at(-1)?.instructions.push(instruction);
    }
  }
  return dockerfile;
}

/** The stage named `name`, and the stages it is built FROM, base first. */
export function stageChain(dockerfile: Dockerfile, name: string): Stage[] {
  const stage = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`the Dockerfile has no stage named ${name}`);
  const base = dockerfile.stages.find((candidate) => candidate.name === stage.from);
  return base ? [...stageChain(dockerfile, base.name), stage] : [stage];
}

/** `KEY=value KEY2="value two"` (ENV's form) as pairs, values unquoted. */
export function keyValues(args: string): [string, string][] {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)].map(([, key, value]) => [
    key!,
    value!.replace(/^"(.*)"$/, '$1'),
  ]);
}

/** Replaces `${NAME}` and `$NAME` by their values (a name without one is left as it is). */
export function expandVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced, bare) => variables[braced ?? bare] ?? whole);
}
