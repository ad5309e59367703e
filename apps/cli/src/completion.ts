import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Every command path (`rename`, `keywords enhance`) with its options' long names, read from the program itself. */
function commandTree(program: Command): { path: string[]; options: string[] }[] {
  const walk = (command: Command, path: string[]): { path: string[]; options: string[] }[] => [
    { path, options: [...command.options.map((option) => option.long!).filter(Boolean), '--help'] },
    ...command.commands.flatMap((sub) => walk(sub, [...path, sub.name()])),
  ];
  return walk(program, []);
}

/**
 * A completion script for the shell, generated from the commands and options commander knows (so it never
 * drifts from `--help`): commands, subcommands and options complete; paths complete as the shell's own files.
 */
export function completionScript(program: Command, shell: Shell): string {
  const tree = commandTree(program);
  const words = (path: string[]) => {
    const node = tree.find((entry) => entry.path.join(' ') === path.join(' '))!;
    const subcommands = tree.filter(
      (entry) => entry.path.length === path.length + 1 && entry.path.slice(0, -1).join(' ') === path.join(' '),
    );
    return [...subcommands.map((entry) => entry.path.at(-1)!), ...node.options];
  };
  if (shell === 'fish') {
    return tree
      .flatMap(({ path }) => {
        const condition = path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${path.at(-1)}`;
        return words(path).map((word) =>
          word.startsWith('--')
            ? `complete -c renamer -n '${condition}' -l ${word.slice(2)}`
            : `complete -c renamer -n '${condition}' -f -a ${word}`,
        );
      })
      .join('\n');
  }
  const cases = tree.map(({ path }) => `    "${path.join(' ')}") words="${words(path).join(' ')}" ;;`).join('\n');
  const body = `_renamer() {
  local cur path word
  cur="\${COMP_WORDS[COMP_CWORD]}"
  path=""
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$word" in -*) ;; *) case " $(_renamer_words "$path") " in *" $word "*) path="\${path:+$path }$word" ;; esac ;; esac
  done
  COMPREPLY=($(compgen -W "$(_renamer_words "$path")" -- "$cur"))
  [ \${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))
}
_renamer_words() {
  local words=""
  case "$1" in
${cases}
  esac
  echo "$words"
}`;
  return shell === 'bash'
    ? `${body}\ncomplete -o filenames -F _renamer renamer`
    : `autoload -U +X bashcompinit && bashcompinit\n${body}\ncomplete -o filenames -F _renamer renamer`;
}
