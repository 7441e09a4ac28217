/**
 * Whether a name the question writes is the asker's own (their files, their service), which no
 * page of the docs names: a relative path (see {@link isRelativePath}), or a name the question
 * calls its own ("our HTTP API", "my `foo-sys` crate"). The abstention rule does not count such a
 * name as one the evidence lacks.
 *
 * @example
 * askersOwn('How do I re-run it only when the C sources under `csrc/` change?', 'csrc/'); // true
 * askersOwn("I'm setting up Mock Service Worker to fake our HTTP API in tests.", 'HTTP API'); // true
 * askersOwn('Is there a maximum size for Apache Kafka messages?', 'Apache Kafka'); // false
 */
export function askersOwn(question: string, anchor: string): boolean {
  return isRelativePath(anchor) || ownedBy(question, anchor);
}

/**
 * A relative path of files (`config/settings.toml`, `csrc/`, `out/reports/2024`): a question that
 * writes one most often names the asker's own files. Not an absolute or home path (`/etc/orbit.toml`,
 * `~/.ssh/config`), a URL, a scoped package (`@scope/name`), a setting with a path in it
 * (`cargo::metadata=include=/opt/foo/include`) or capitals with a slash between them (`I/O`, `CI/CD`).
 *
 * @example
 * isRelativePath('config/settings.toml'); // true
 * isRelativePath('~/.ssh/config'); // false
 */
export function isRelativePath(anchor: string): boolean {
  return /^(?:\.{1,2}\/)?[a-z0-9_.-]+\/(?:[A-Za-z0-9_.-]+\/?)*$/.test(anchor);
}

/** Whether the question writes `anchor` right after "my" or "our" (a code span's backtick between). */
function ownedBy(question: string, anchor: string): boolean {
  const at = question.indexOf(anchor);
  return at >= 0 && /\b(?:my|our)\s+`?$/i.test(question.slice(0, at));
}
