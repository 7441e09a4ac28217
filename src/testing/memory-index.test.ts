import { describeIndexBackend } from '../index/backend-suite.ts';
import { createMemoryIndex } from './memory-index.ts';

describeIndexBackend('memory', async () => createMemoryIndex());
