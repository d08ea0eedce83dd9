import { afterAll } from 'vitest';
import { removeTestFolders } from './temporary-folders';

// Run before each test file (vitest.config.ts `setupFiles`), also when files share a worker's modules.
afterAll(removeTestFolders);
