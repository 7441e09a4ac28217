import { Option } from 'commander';
import { modelLabelChoices } from '../../agent/policy/model-labels.ts';
import { loadConfig } from '../../config/load.ts';
import type { AtlasConfig } from '../../config/schema.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';
import type { CliIO } from '../io.ts';
import { nonEmpty } from './option-values.ts';
import { openIndex } from './options.ts';
import { indexPresent } from '../require-index.ts';

/**
 * `--config FILE`: the `atlas.config.yaml` to use (default: `ATLAS_CONFIG`, else the one at the
 * docs root, else the one in the working directory).
 *
 * @example
 * command.addOption(configOption()); // atlas ask --config examples/allergy/atlas.config.yaml "..."
 */
export function configOption(): Option {
  return new Option('--config <file>', 'atlas.config.yaml to use (default: ATLAS_CONFIG, else the one at the docs root, else in the cwd)').argParser(
    nonEmpty('--config', 'atlas.config.yaml'),
  );
}

/**
 * The config of a command: `--config`, `ATLAS_CONFIG`, `atlas.config.yaml` at `docsRoot`, then
 * in the cwd (see `loadConfig`); the file used is named on stderr. Undefined when there is none.
 *
 * @example
 * const config = await commandConfig(io, { config: options.config }, await indexDocsRoot(io, options.db));
 */
export async function commandConfig(io: CliIO, options: { config?: string }, docsRoot: string | undefined): Promise<AtlasConfig | undefined> {
  const config = await loadConfig({ cwd: io.cwd, env: io.env, ...(options.config ? { file: options.config } : {}), ...(docsRoot ? { docsRoot } : {}) });
  if (config) io.stderr(`atlas: config: ${config.source}\n`);
  return config;
}

/**
 * The docs root recorded in the index at `--db` by `atlas ingest`, or undefined when there is no
 * index there yet (or it cannot be read: the command then reports that itself).
 *
 * @example
 * await indexDocsRoot(io, '.atlas/index.db'); // '/home/me/site/docs'
 */
export async function indexDocsRoot(io: CliIO, db: string | undefined): Promise<string | undefined> {
  if (!(await indexPresent(io, db))) return undefined;
  try {
    const index = await openIndex(io, db);
    try {
      return await index.docsRoot();
    } finally {
      await index.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Notes for the declared model labels that no page readable under `filter` carries:
 * `search_docs` does not offer them (a typo in the config, or pages not labelled yet).
 *
 * @example
 * await modelLabelNotes(index, config, filter);
 * // ['atlas.config.yaml declares the model label "stores", but no public page carries it; search_docs does not offer it']
 */
export async function modelLabelNotes(index: IndexBackend, config: AtlasConfig | undefined, filter: SearchFilter | undefined): Promise<string[]> {
  if (!config || config.modelLabels.length === 0) return [];
  const { missing } = await modelLabelChoices(index, config.modelLabels, filter);
  const pages = filter?.principal ? 'page these groups may read' : 'public page';
  return missing.map((name) => `${config.source} declares the model label "${name}", but no ${pages} carries it; search_docs does not offer it`);
}
