import type { Dataset } from './dataset.ts';

/**
 * Every `every`-th case of each eval file of a dataset (the 1st, the `every + 1`-th, ...), in file
 * order, with all of its docs: a quick measure of a large set (`atlas eval compare --every 10`).
 * The name says which sample it is, so that a report of the sample is not taken for one of the
 * whole set. `every` 1 is the dataset itself.
 *
 * @example
 * const sample = everyNth(await loadDataset('../shared/datasets/cmrc2018-dev'), 10);
 * sample.name; // 'cmrc2018-dev (every 10th case)'
 * sample.retrievalQueries?.length; // 322 of 3,219
 */
export function everyNth(dataset: Dataset, every: number): Dataset {
  if (every === 1) return dataset;
  const sampled = { ...dataset, name: `${dataset.name} (every ${ordinal(every)} case)` };
  if (dataset.retrievalQueries) sampled.retrievalQueries = dataset.retrievalQueries.filter((_, index) => index % every === 0);
  if (dataset.qaGold) sampled.qaGold = dataset.qaGold.filter((_, index) => index % every === 0);
  if (dataset.decisions) sampled.decisions = dataset.decisions.filter((_, index) => index % every === 0);
  return sampled;
}

/** 2 -> "2nd", 3 -> "3rd", 10 -> "10th", 11 -> "11th", 21 -> "21st". */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
