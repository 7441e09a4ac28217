import { describeIndexBackend } from '../index/contract/backend-suite.ts';
import { createMemoryIndex } from './memory-index.ts';

describeIndexBackend('memory', async () => createMemoryIndex());
