import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFolder } from '../testing/shared-folder.ts';
import { loadCorpus, type Chunk, type LoadedCorpus } from './index.ts';

// Documentation-site syntax on real pages, kept outside the repo at ../shared/datasets: the
// Vitest docs (VitePress: `::: tip`, `::: code-group`, `::: tabs`, Vue components) and the
// Graphile Worker docs (Docusaurus: `:::tip`). GitBook and a VitePress home page come from
// __fixtures__/doc-sites, as no shared corpus uses them.
const vitest = sharedFolder('datasets/vitest-dev/docs', process.env);
const graphile = sharedFolder('datasets/graphile-worker-dev/docs', process.env);
const fixtures = fileURLToPath(new URL('./__fixtures__/doc-sites', import.meta.url));

/** Every chunk of a loaded corpus by id. */
function chunksOf(corpus: LoadedCorpus): Map<string, Chunk> {
  return new Map(corpus.docs.flatMap((doc) => doc.chunks.map((chunk) => [chunk.chunkId, chunk] as const)));
}

/** A chunk's heading path and text, what a test asserts exactly. */
function shown(chunks: Map<string, Chunk>, id: string): { headingPath: string[]; text: string } {
  const chunk = chunks.get(id);
  if (!chunk) throw new Error(`no chunk ${id}`);
  return { headingPath: chunk.headingPath, text: chunk.text };
}

describe('VitePress syntax on the Vitest docs', () => {
  let corpus: LoadedCorpus;
  let chunks: Map<string, Chunk>;
  beforeAll(async () => {
    if (!vitest.present) return;
    corpus = await loadCorpus(vitest.path);
    chunks = chunksOf(corpus);
  });

  it('loads every page, with no problem and no note', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    expect([corpus.docs.length, corpus.problems, corpus.notes]).toEqual([216, [], []]);
  });

  it('reads a ::: tip as its label and drops its closing line', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    expect(shown(chunks, 'api-hooks#12')).toEqual({
      headingPath: ['Hooks', 'Test Hooks'],
      text: 'Vitest provides a few hooks that you can call _during_ the test execution to cleanup the state when the test has finished running.\n\nWarning:\nThese hooks will throw an error if they are called outside of the test body.',
    });
  });

  it('reads a titled container as its title, components dropped from the title and the heading', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    // "## test.scoped <Version>3.1.0</Version> <Deprecated />" and "::: danger DEPRECATED".
    expect(shown(chunks, 'api-test#14')).toEqual({
      headingPath: ['Test', 'test.scoped 3.1.0'],
      text: '- **Alias:** `it.scoped`\n\nDEPRECATED:\n`test.scoped` is deprecated in favor of [`test.override`](#test-override) and will be removed in a future major version.\n\nAlias of [`test.override`](#test-override)',
    });
    // "::: warning WARNING <Version>3.2.0</Version>".
    expect(shown(chunks, 'api-browser-context#5').text).toBe(
      'Tip:\nThe `getBy*` API is explained at [Locators API](/api/browser/locators).\n\nWARNING 3.2.0:\nNote that `screenshot` will always return a base64 string if `save` is set to `false`.\nThe `path` is also ignored in that case.',
    );
  });

  it('reads a ::: details box as its summary', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    expect(shown(chunks, 'api-advanced-test-module#3')).toEqual({
      headingPath: ['TestModule', 'viteEnvironment 4.1.0'],
      text: "This is a Vite's [`DevEnvironment`](https://vite.dev/guide/api-environment) that transforms all files inside of the test module.\n\nHistory:\n- `v4.0.15`: added as experimental",
    });
  });

  it('keeps the fences of a ::: code-group and drops its lines', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    expect(shown(chunks, 'guide-browser-index#1')).toEqual({
      headingPath: ['Browser Mode | Guide', 'Installation'],
      text: 'For easier setup, you can use `vitest init browser` command to install required dependencies and create browser configuration.\n\n```bash [npm]\nnpx vitest init browser\n```\n```bash [yarn]\nyarn exec vitest init browser\n```\n```bash [pnpm]\npnpx vitest init browser\n```\n```bash [bun]\nbunx vitest init browser\n```',
    });
  });

  it('reads the tab titles of a ::: tabs container (vitepress-plugin-tabs) as labels', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    const text = shown(chunks, 'guide-browser-index#3').text;
    expect(text.slice(0, text.indexOf('```'))).toBe(
      "If you don't already use one of these tools, we recommend starting with Playwright because it supports parallel execution, which makes your tests run faster.\n\nPlaywright:\n[Playwright](https://npmx.dev/package/playwright) is a framework for Web Testing and Automation.\n\n",
    );
    expect(text).toContain('```\nWebdriverIO:\n\n[WebdriverIO](https://npmx.dev/package/webdriverio) allows you to run tests locally using the WebDriver protocol.\n\n```bash [npm]');
    // Tab titles an HTML block swallowed, and its closing line: "== right\n<center>...\n:::".
    expect(shown(chunks, 'config-browser-detailspanelposition#0').text.endsWith('})\n```\n\n## Example\n\nbottom:\nright:')).toBe(true);
  });

  it('drops Vue components and their <script setup>, keeping the text they wrap', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    // <script setup>, <FeaturesList ... />, <div h-2 />, <CourseLink href="...">Learn ...</CourseLink>, ::: tip.
    expect(shown(chunks, 'guide-features#0').text).toBe(
      "Learn how to write your first test by Video\n\nTip:\nThis page is a high-level overview of Vitest's capabilities. If you're new to Vitest, we recommend reading the [Learn](/guide/learn/writing-tests) tutorial first for a hands-on introduction.",
    );
    // <div style="..."> holding <Box>Test file</Box> and <ArrowDown /> steps.
    expect(shown(chunks, 'guide-coverage#3').text.endsWith(
      '\n\nTest file\nEnable V8 runtime coverage collection\nRun file\nCollect coverage results from V8\nRemap coverage results to source files\nCoverage report',
    )).toBe(true);
  });

  it('drops HTML comments, a list item\'s included, leaving no blank line', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    // "- A single or multiple reporters with reporter options:\n  <!-- eslint-skip -->\n  ```ts".
    expect(shown(chunks, 'config-coverage#8').text).toContain('- A single or multiple reporters with reporter options:\n  ```ts\n  {\n    reporter: [');
  });

  it('lets no directive, Liquid tag, comment or component through into any chunk', ({ skip }) => {
    skip(!vitest.present, vitest.absent);
    expect(leaks([...chunks.values()])).toEqual([]);
  });
});

describe('Docusaurus syntax on the Graphile Worker docs', () => {
  let corpus: LoadedCorpus;
  beforeAll(async () => {
    if (graphile.present) corpus = await loadCorpus(graphile.path);
  });

  it('reads :::tip as its label and drops the closing line, the chunks where they were', ({ skip }) => {
    skip(!graphile.present, graphile.absent);
    const chunks = chunksOf(corpus);
    expect(shown(chunks, 'installation#0')).toEqual({
      headingPath: ['Installation'],
      text: 'Install the `graphile-worker` module from npm:\n\n```sh npm2yarn\nnpm install --save graphile-worker\n```\n\nTip:\n\nWe do not recommend global installation.',
    });
    // ":::tip Debugging" and ":::warning Do not create a 'tasks' folder at the root!".
    expect(shown(chunks, 'contributing#3').text).toContain(
      "Run `yarn test` to run the tests, this will also set up the database.\n\nDebugging:\n\nIf you're having some trouble, you can run the tests in stages.",
    );
    expect(shown(chunks, 'contributing#3').text.endsWith("\n\nDo not create a 'tasks' folder at the root!\n\nIf you have any files in `./tasks`, some tests will fail.")).toBe(true);
    expect(leaks([...chunks.values()])).toEqual([]);
  });
});

describe('GitBook syntax', () => {
  it('drops hint and tab tag lines, reads tab and code titles as labels, drops inline tags', async () => {
    const { docs, problems, notes } = await loadCorpus(`${fixtures}/gitbook`);
    expect([problems, notes]).toEqual([[], []]);
    expect(docs[0]!.chunks.map((chunk) => ({ headingPath: chunk.headingPath, text: chunk.text }))).toEqual([
      { headingPath: ['Install'], text: 'The worker needs PostgreSQL 12 or newer.' },
      {
        headingPath: ['Install', 'Add the package'],
        text: 'npm:\n```bash\nnpm install --save example-worker\n```\n\nyarn:\n```bash\nyarn add example-worker\n```',
      },
      {
        headingPath: ['Install', 'Configure'],
        text: 'worker.config.js:\n```js\nmodule.exports = { concurrency: 4 };\n```\n\nRun the worker once with `--once` to check the configuration.\n\n[tasks.md](tasks.md)',
      },
    ]);
  });
});

describe('a VitePress home page', () => {
  it('is left out with a note, not a problem: the other pages load', async () => {
    const { docs, problems, notes } = await loadCorpus(`${fixtures}/vitepress-home`);
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      {
        file: 'index.md',
        field: 'content',
        message: 'left out: the page has no text of its own, only markup ("<script setup>"), as a site\'s home page has. Nothing to do if that is intended; else write some text.',
      },
    ]);
    expect(docs.map((doc) => doc.chunks.map((chunk) => chunk.text))).toEqual([['Before you start:\nInstall Node.js 20 or newer.\n\nRun `example init` to create a config file.']]);
  });
});

/** Lines of chunk text, outside code, that still show documentation-site syntax: `chunkId: line`. */
function leaks(chunks: Chunk[]): string[] {
  const found: string[] = [];
  for (const chunk of chunks) {
    let code = false;
    for (const line of chunk.text.split('\n')) {
      if (/^\s*(?:```|~~~)/.test(line)) code = !code;
      const prose = line.replace(/(`+).*?\1/g, '');
      if (!code && /^\s*(?::::|==+ )|\{%|%\}|<!--|<\/?[A-Z][A-Za-z]*[\s/>]/.test(prose)) found.push(`${chunk.chunkId}: ${line}`);
    }
  }
  return found;
}
