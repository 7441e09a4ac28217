import { watch } from 'chokidar';

/**
 * What the ingest watcher needs of a file watcher: the paths that changed (a file or folder
 * added, changed or removed), errors, and a close. {@link chokidarFolderWatcher} is the real one;
 * tests pass a fake that reports the changes they choose.
 */
export interface FolderWatcher {
  /** Calls `listener` with the absolute path of each file or folder added, changed or removed. */
  onChange(listener: (file: string) => void): void;
  /** Calls `listener` on a watch error (a folder that cannot be read, too many watched files). */
  onError(listener: (error: Error) => void): void;
  /** Resolves once the folder is being watched. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Makes the watcher of a folder; `ignored` paths are not watched (nor the folders below them). */
export type CreateFolderWatcher = (root: string, options: { ignored: (file: string) => boolean }) => FolderWatcher;

/**
 * A {@link FolderWatcher} over chokidar: the changes after the first scan (`ignoreInitial`),
 * symlinks not followed (the corpus loader reads nothing outside the folder), and `atomic`: a
 * file an editor deletes and writes again within 100 ms (a save by rename) is one change.
 *
 * @example
 * const watcher = chokidarFolderWatcher('/abs/docs', { ignored: watchIgnore('/abs/docs', []) });
 * watcher.onChange((file) => console.log(file));
 * await watcher.ready;
 */
export const chokidarFolderWatcher: CreateFolderWatcher = (root, { ignored }) => {
  const watcher = watch(root, { ignoreInitial: true, followSymlinks: false, atomic: true, ignored: (file: string) => ignored(file) });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    onChange: (listener) => {
      watcher.on('all', (_event, file) => listener(file));
    },
    onError: (listener) => {
      watcher.on('error', (error) => listener(error instanceof Error ? error : new Error(String(error))));
    },
    ready,
    close: () => watcher.close(),
  };
};
