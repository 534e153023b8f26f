// Completion scripts for bash, zsh, fish and PowerShell, generated from the Commander program.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';
import { powershellScript } from './powershell.js';
import { zshScript } from './zsh.js';

import type { Shell } from './shells.js';

export { COMPLETION_FILES, SHELLS, type Shell } from './shells.js';

/** The completion script for a shell. Pass the full program (`buildProgram([])`). */
export function completionScript(shell: Shell, program: Command): string {
  const model = completionModel(program);
  switch (shell) {
    case 'bash':
      return bashScript(model);
    case 'zsh':
      return zshScript(model);
    case 'fish':
      return fishScript(model);
    case 'powershell':
      return powershellScript(model);
  }
}
