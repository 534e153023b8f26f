import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh, fish or powershell): subcommands, flags, their values and file names',
  own: () => import('./print.js'),
});
