import type { NounInfo } from '../cli/define.js';

/** A noun's module: its definition, whose verbs load lazily. */
export interface NounModule {
  noun: NounInfo;
}

/** Every top-level command, in the order help lists them. Adding a noun: one line here. */
export const NOUNS: Array<[name: string, load: () => Promise<NounModule>]> = [
  ['agents', () => import('./agents/index.js')],
  ['tasks', () => import('./tasks/index.js')],
  ['persistent', () => import('./persistent/index.js')],
  ['plan', async () => ({ noun: (await import('./as-code/index.js')).plan })],
  ['apply', async () => ({ noun: (await import('./as-code/index.js')).apply })],
  ['export', async () => ({ noun: (await import('./as-code/index.js')).exportNoun })],
  ['schedule-preview', () => import('./schedule-preview/index.js')],
  ['auth', () => import('./auth/index.js')],
  ['config', () => import('./config/index.js')],
  ['api', () => import('./api/index.js')],
  ['emulator', () => import('./emulator/index.js')],
  ['webhook-listen', () => import('./webhook-listen/index.js')],
  ['mcp', () => import('./mcp/index.js')],
  ['doctor', () => import('./doctor/index.js')],
  ['conformance', () => import('./conformance/index.js')],
  ['version', () => import('./version/index.js')],
  ['completion', () => import('./completion/index.js')],
  ['help', () => import('./help/index.js')],
];
