// Kept apart from the generators so the command definition can use it without loading them.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each script lives in the repository's `completions/` folder. */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'agentctl.bash', zsh: '_agentctl', fish: 'agentctl.fish', powershell: 'agentctl.ps1' };
