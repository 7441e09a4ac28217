import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'bin/**/*.test.js'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
