// Regenerates completions/ (bash, zsh, fish, PowerShell) from the built CLI: `npm run completions`.
// The scripts come from the Commander program itself, so rerun this after changing any command.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = { bash: 'agentctl.bash', zsh: '_agentctl', fish: 'agentctl.fish', powershell: 'agentctl.ps1' };

mkdirSync(`${root}completions`, { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [`${root}bin/agentctl.js`, 'completion', shell], { encoding: 'utf8' });
  writeFileSync(`${root}completions/${file}`, script);
  console.log(`completions/${file}`);
}
