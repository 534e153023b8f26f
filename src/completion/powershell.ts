// The PowerShell completion script: one Register-ArgumentCompleter whose script block walks the
// command line with the command tree embedded as JSON (in a literal here-string: nothing in it is
// ever evaluated). All data embedded; nothing calls back into node.
import { allCommands, flagsOf, optionsAt, type CompletionModel } from './model.js';

/** The tree as the script reads it: per command path, its subcommands, flags and argument choices. */
export interface PowerShellData {
  [path: string]: {
    subcommands: Array<[name: string, description: string]>;
    options: Array<{ flags: string[]; description: string; arity: number; choices?: string[] }>;
    args: Array<string[] | null>;
  };
}

export function powershellData(model: CompletionModel): PowerShellData {
  const data: PowerShellData = {};
  for (const command of allCommands(model)) {
    data[command.path.join(' ')] = {
      subcommands: command.subcommands.map((sub) => [sub.name, sub.description]),
      options: optionsAt(model, command).map((option) => ({ flags: flagsOf(option), description: option.description, arity: option.arity, ...(option.choices ? { choices: option.choices } : {}) })),
      args: command.arguments.map((argument) => argument.choices ?? null),
    };
  }
  return data;
}

export function powershellScript(model: CompletionModel): string {
  // One line of JSON: a here-string ends only at a line starting with '@, which JSON on one line cannot hold.
  const json = JSON.stringify(powershellData(model));
  return `# PowerShell completion for ${model.name}. Generated from its command definitions by \`${model.name} completion powershell\`: do not edit.
# Install: ${model.name} completion powershell | Out-String | Invoke-Expression   (add that line to $PROFILE)

Register-ArgumentCompleter -Native -CommandName '${model.name}' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $tree = ConvertFrom-Json @'
${json}
'@
    # The command path before the cursor and how many positional arguments it has.
    $path = ''
    $position = 0
    $pending = $null
    $skip = 0
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 | Where-Object { $_.Extent.EndOffset -lt $cursorPosition -or ($_.Extent.EndOffset -eq $cursorPosition -and $wordToComplete -eq '') } | ForEach-Object { $_.Extent.Text })
    foreach ($word in $words) {
        $node = $tree.PSObject.Properties[$path].Value
        if ($skip -gt 0) { $skip--; continue }
        if ($word.StartsWith('-')) {
            $option = $node.options | Where-Object { $_.flags -contains $word } | Select-Object -First 1
            if ($option) { $skip = $option.arity; $pending = $option } else { $pending = $null }
            continue
        }
        $pending = $null
        $child = $node.subcommands | Where-Object { $_[0] -eq $word } | Select-Object -First 1
        if ($child) { $path = ("$path $word").Trim(); $position = 0 } else { $position++ }
    }
    $node = $tree.PSObject.Properties[$path].Value
    $results = @()
    if ($skip -gt 0 -and $pending) {
        # The value of a flag: its choices, else file names (PowerShell's own completion).
        if (-not $pending.choices) { return }
        $results = $pending.choices | ForEach-Object { ,@($_, $pending.description, 'ParameterValue') }
    } elseif ($wordToComplete.StartsWith('-')) {
        $results = $node.options | ForEach-Object { $o = $_; $o.flags | ForEach-Object { ,@($_, $o.description, 'ParameterName') } }
    } else {
        $results = @($node.subcommands | ForEach-Object { ,@($_[0], $_[1], 'Command') })
        $choices = if ($position -lt $node.args.Count) { $node.args[$position] } elseif ($node.args.Count -gt 0) { $node.args[-1] } else { $null }
        if ($choices) { $results += @($choices | ForEach-Object { ,@($_, $_, 'ParameterValue') }) }
    }
    $results | Where-Object { $_[0] -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_[0], $_[0], $_[2], $(if ($_[1]) { $_[1] } else { $_[0] }))
    }
}
`;
}
