// Runs before each test file (vitest.config.ts, setupFiles).
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/temp.js';

afterAll(removeTempDirs);
