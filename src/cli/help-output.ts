import type { IO } from './io.js';
import { terminalOf } from '../output/terminal.js';

/**
 * Where help and the overview go: at a terminal with a pager, collected, and when longer than the
 * terminal shown through the pager (as git and man do); otherwise, and into a pipe, straight to stdout.
 */
export class HelpOutput {
  private text = '';

  constructor(private readonly io: Pick<IO, 'stdout' | 'env' | 'terminal' | 'pager'>) {}

  private get paging(): boolean {
    return this.io.pager !== undefined && terminalOf(this.io).pages;
  }

  write(text: string): boolean {
    if (!this.paging) return this.io.stdout.write(text);
    this.text += text;
    return true;
  }

  /** Shows what was collected: through the pager when it does not fit the terminal. */
  async end(): Promise<void> {
    const text = this.text;
    this.text = '';
    if (text === '') return;
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines >= terminalOf(this.io).rows && this.io.pager) await this.io.pager(text);
    else this.io.stdout.write(text);
  }
}
