import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView, shortExample } from './evidence-view.ts';
import { statesAnswer } from './directness.ts';
import { coverage, extractAnswer } from './extract-answer.ts';
import { analyzeQuestion } from '../../text/question.ts';
import { answerAnalysis, withEarlierTurns } from './follow-up.ts';
import { quotableSentence } from './answer-sentences.ts';

type Result = { chunk_id: string; doc_id: string; heading: string; heading_path?: string; snippet: string; score?: number };

/** The prompt of a run that searched the question once, was shown `results`, then read `reads` whole by id. */
function promptOf(question: string, results: Result[], reads: Array<Omit<Result, 'snippet'> & { text: string }> = []): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [
    { role: 'user', content: [{ type: 'text', text: question }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-0', toolName: 'search_docs', input: { query: question } }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-0',
          toolName: 'search_docs',
          output: { type: 'json', value: { results: results.map((result) => ({ applies_to: 'all', score: 10, ...result })) } },
        },
      ],
    },
  ];
  reads.forEach((read, position) => {
    const toolCallId = `read-${position}`;
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'read_section', input: { chunk_id: read.chunk_id } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'read_section', output: { type: 'json', value: { applies_to: 'all', offset: 0, next_offset: null, complete: true, ...read } } }] },
    );
  });
  return prompt;
}

function measure(question: string, results: Result[]) {
  const analysis = analyzeQuestion(question);
  const conversation = readConversation(promptOf(question, results));
  return { coverage: coverage(analysis, new EvidenceView(analysis, conversation, undefined)), answer: extractAnswer(analysis, conversation) };
}

/** The answer that shows `closest` for want of a sentence that states the answer. */
function noDirectAnswer(closest: Array<{ doc_id: string; sentences: string[] }>) {
  return { text: '', citations: [], abstained: true, abstain_reason: 'no direct answer', closest };
}

const vacuum: Result = {
  chunk_id: 'scaling#4',
  doc_id: 'scaling',
  heading: 'Keep your jobs table small',
  snippet: 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.\n\nTODO: which `VACUUM` options should we recommend? Any other tables to VACUUM?',
};

describe('extractAnswer abstains when a placeholder note asks the question', () => {
  it('abstains when a TODO note holds more than 40% of the question, although the documentation holds all its terms', () => {
    const { coverage: measured, answer } = measure('Which VACUUM options are recommended for the jobs table?', [vacuum]);
    // vacuum (a name, weight 3), option, recommend, tabl of vacuum 3 + option, recommend, job, tabl: 6 of 7.
    expect(measured).toEqual({ missingAnchorShare: 0, total: 1, bestPassage: 1, placeholderMatch: 6 / 7, focusShare: 1 });
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });

  it('answers from the documentation when the note is about something else', () => {
    const { coverage: measured, answer } = measure('Why does the jobs table need a VACUUM?', [
      { ...vacuum, snippet: 'The jobs table has extremely high churn; give it a nice VACUUM from time to time.\n\nTODO: document the cron presets.' },
    ]);
    expect(measured.placeholderMatch).toBe(0);
    expect(answer).toEqual({
      text: 'The jobs table has extremely high churn; give it a nice VACUUM from time to time. [1]',
      citations: [{ doc_id: 'scaling', quote: 'The jobs table has extremely high churn; give it a nice VACUUM from time to time.' }],
      abstained: false,
    });
  });

  it('never quotes a TODO note as a sentence of the answer: without it the rest does not state the answer', () => {
    // The note holds under 40% of the question's weighted terms, so the question is not refused;
    // as a sentence it held VACUUM and "options" and made the answer cover the question.
    const { answer } = measure("Which VACUUM options or autovacuum settings are recommended for Graphile Worker's jobs table?", [
      { ...vacuum, snippet: 'The jobs table has extremely high churn; find a quiet period and give it a nice `VACUUM` from time to time.\n\nTODO: which `VACUUM` options should we recommend?' },
      { chunk_id: 'config#2', doc_id: 'config', heading: 'Presets', snippet: 'In the case of Graphile Worker, a preset also contains the `worker` key which contains settings specific to Graphile Worker.' },
    ]);
    expect(answer).toEqual(noDirectAnswer([
        { doc_id: 'config', sentences: ['In the case of Graphile Worker, a preset also contains the `worker` key which contains settings specific to Graphile Worker.'] },
        { doc_id: 'scaling', sentences: ['The jobs table has extremely high churn; find a quiet period and give it a nice `VACUUM` from time to time.'] },
      ]));
  });

  it('counts a name written only in the hard-wrapped line of a TODO note as absent: the plain abstention, no closest passages', () => {
    const perf: Result = {
      chunk_id: 'performance#9',
      doc_id: 'performance',
      heading: 'Performance',
      snippet: 'Jobs ran at 10,000 per second on a laptop.\n\nTODO: post results in a more reasonable configuration, e.g. using an\nRDS PostgreSQL server and workers running on EC2.',
    };
    const { coverage: measured, answer } = measure('What throughput can I expect with workers on EC2?', [perf]);
    expect(measured.missingAnchorShare).toBe(1);
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });
});

describe('extractAnswer does not count the asker\'s own names (paths, "our ...") as names the docs miss', () => {
  const rerun: Result = {
    chunk_id: 'build-scripts#24',
    doc_id: 'build-scripts',
    heading: 'cargo::rerun-if-changed=PATH',
    snippet: 'The `rerun-if-changed` instruction tells Cargo to re-run the build script if the file at the given path has changed. If the path points to a directory, it will scan the entire directory for any modifications.',
  };

  it('shows the closest passages for a question naming a folder of its own, which no page names', () => {
    const { coverage: measured, answer } = measure('How do I make my build script re-run only when the C sources under `csrc/` change?', [rerun]);
    expect(measured.missingAnchorShare).toBe(0);
    expect(answer).toEqual(noDirectAnswer([{ doc_id: 'build-scripts', sentences: [rerun.snippet.split(' If ')[0]!, `If ${rerun.snippet.split(' If ')[1]!}`] }]));
  });

  it('still gives the plain abstention when a name the question asks about is missing', () => {
    const { coverage: named, answer } = measure('How do I make my build script re-run only when Bazel changes the C sources?', [rerun]);
    expect(named.missingAnchorShare).toBe(1);
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });

  it('does not count a name the question calls its own ("our HTTP API") as missing, and counts the same name otherwise', () => {
    const own = measure('How do I make the build script re-run when our Bazel rules change the sources?', [rerun]);
    expect(own.coverage.missingAnchorShare).toBe(0);
    expect(own.answer).toEqual(noDirectAnswer([{ doc_id: 'build-scripts', sentences: [rerun.snippet.split(' If ')[0]!, `If ${rerun.snippet.split(' If ')[1]!}`] }]));
    expect(measure('How do I make the build script re-run when Bazel rules change the sources?', [rerun]).coverage.missingAnchorShare).toBe(1);
  });
});

describe('extractAnswer shows the entry of a longer example that answers', () => {
  it('after a closest sentence that introduces a --help listing and nothing to read on to, shows the option the question is about', () => {
    const help = [
      '      --help                    Show help                              [boolean]',
      '  -j, --jobs                    number of jobs to run concurrently      [number]',
      '      --poll-interval           how long to wait between polling for jobs in',
      '                                milliseconds (for jobs scheduled in the',
      '                                future/retries)                         [number]',
    ].join('\n');
    const cli: Result = { chunk_id: 'cli-run#1', doc_id: 'cli-run', heading: 'CLI options', snippet: `The following CLI options are available (\`graphile-worker --help\`):\n\n\`\`\`\n${help}\n\`\`\`` };
    const { answer } = measure('Jobs scheduled for the future start late: how do I make workers poll for them more often from the command line?', [cli]);
    expect(answer).toEqual(
      noDirectAnswer([
        {
          doc_id: 'cli-run',
          sentences: [
            'The following CLI options are available (`graphile-worker --help`):',
            '--poll-interval how long to wait between polling for jobs in milliseconds (for jobs scheduled in the future/retries) [number]',
          ],
        },
      ]),
    );
  });
});

const lifecycle: Result = {
  chunk_id: 'jobs#2',
  doc_id: 'jobs',
  heading: 'Job lifecycle',
  snippet: [
    'Each job has a lease of 30 minutes by default.',
    'When the lease expires, the job returns to its queue.',
    'Call `renewLease` to extend the lease of a long job.',
    'A job that fails is retried up to 25 times.',
    'The priority of a job decides its place in the queue.',
  ].join(' '),
};

describe('extractAnswer composes a precision-first answer', () => {
  it('states at most 3 sentences, the most direct first, each followed by its marker [n] and cited verbatim on its own', () => {
    const { answer } = measure('What is the default lease of a job, what decides its place in the queue, and how many times is a failed job retried?', [lifecycle]);
    // The retry sentence holds the most of the question and the number "how many" asks for: it
    // leads, although the passage says it fourth. The renewLease and expiry sentences add nothing asked.
    expect(answer).toEqual({
      text: 'A job that fails is retried up to 25 times. [1] The priority of a job decides its place in the queue. [2] Each job has a lease of 30 minutes by default. [3]',
      citations: [
        { doc_id: 'jobs', quote: 'A job that fails is retried up to 25 times.' },
        { doc_id: 'jobs', quote: 'The priority of a job decides its place in the queue.' },
        { doc_id: 'jobs', quote: 'Each job has a lease of 30 minutes by default.' },
      ],
      abstained: false,
    });
  });

  it('states one sentence when it holds the whole question, from the passage ranked second when that is where it is', () => {
    const { answer } = measure('How many times is a failed job retried?', [
      { chunk_id: 'storage#0', doc_id: 'storage', heading: 'Storage', snippet: 'Every job is stored in the jobs table, failed or not.' },
      { chunk_id: 'retries#0', doc_id: 'retries', heading: 'Retries', snippet: 'A job that fails is retried up to 25 times.' },
    ]);
    expect(answer).toEqual({ text: 'A job that fails is retried up to 25 times. [1]', citations: [{ doc_id: 'retries', quote: 'A job that fails is retried up to 25 times.' }], abstained: false });
  });

  it('leaves out a further sentence that says the ones before it again, unless it names something they do not', () => {
    const question = 'A step that returns a big result fails after its work; which error is it and what should the step return instead?';
    const results = (flows: string): Result[] => [
      {
        chunk_id: 'results#0',
        doc_id: 'results',
        heading: 'Passing large data between steps',
        snippet: 'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. Return a reference instead, and let the next step load it.',
      },
      // Its heading holds "results", which the first passage's sentences do not: its sentence is sought for it.
      { chunk_id: 'flows#0', doc_id: 'flows', heading: 'How results move between steps', snippet: flows },
    ];
    const first = 'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. [1] Return a reference instead, and let the next step load it. [2]';
    // 3 of its 10 content words are new (larger, payload, limit): it says the first sentence again.
    const again = measure(question, results('A step whose return value is larger than the payload limit fails with `ORB-1202 PayloadTooLarge`.')).answer;
    expect([again.text, again.citations.length]).toEqual([first, 2]);
    // The same words, but it names the setting that holds the limit: it stays.
    const named = measure(question, results('A step whose return value is larger than `max_payload_kb` fails with `ORB-1202 PayloadTooLarge`.')).answer;
    expect(named.text).toBe(`${first} A step whose return value is larger than \`max_payload_kb\` fails with \`ORB-1202 PayloadTooLarge\`. [3]`);
  });

  it('keeps the text within 100 words: a longer sentence is cut with an ellipsis, its quote stays whole', () => {
    const steps = Array.from({ length: 110 }, (_, index) => `step${index + 1}`);
    const sentence = `A job that fails is retried up to 25 times, ${steps.join(' ')}.`;
    const { answer } = measure('How many times is a failed job retried?', [{ ...lifecycle, snippet: sentence }]);
    // 10 words before the steps, then 90 steps: 100 words.
    expect(answer).toEqual({
      text: `A job that fails is retried up to 25 times, ${steps.slice(0, 90).join(' ')} … [1]`,
      citations: [{ doc_id: 'jobs', quote: sentence }],
      abstained: false,
    });
  });
});

describe('extractAnswer shows the closest passages when no sentences state the answer', () => {
  it('shows the sentence about the question when it gives no number for "how often" (and never words "often")', () => {
    const { answer } = measure('How often should the jobs table get a VACUUM?', [
      { ...vacuum, snippet: 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.\n\nTODO: document the cron presets.' },
    ]);
    expect(answer).toEqual(noDirectAnswer([{ doc_id: 'scaling', sentences: ['The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.'] }]));
  });

  it('shows a sentence with the short example it introduces, quoted as the docs write them', () => {
    const snippet = 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time:\n\n```sql\nVACUUM ANALYZE graphile_worker._private_jobs;\n```';
    const { answer } = measure('How often should the jobs table get a VACUUM?', [{ ...vacuum, snippet }]);
    expect(answer).toEqual(noDirectAnswer([{ doc_id: 'scaling', sentences: [snippet] }]));
  });

  it('shows the passage that best answers the question first, then a passage for what the shown ones do not hold', () => {
    const question = 'Which database server and JavaScript runtime versions does the current release need?';
    const { answer } = measure(question, [
      { chunk_id: 'index#5', doc_id: 'index', heading: 'Features', snippet: 'Designed to be used both from JavaScript or directly in the database server.' },
      { chunk_id: 'storage#0', doc_id: 'storage', heading: 'Storage', snippet: 'The database server keeps every job in one table.' },
      { chunk_id: 'requirements#0', doc_id: 'requirements', heading: 'Requirements', snippet: 'Each release needs PostgreSQL 12+ and Node 22.18+.' },
    ]);
    // No sentence words the runtime, the versions or "current": 5 of 9 weighted terms, no answer.
    // The storage sentence scores above the requirements one for the whole question, but holds only
    // "database server", which the first passage shows already; "release" is what the requirements add.
    expect(answer).toEqual(noDirectAnswer([
        { doc_id: 'index', sentences: ['Designed to be used both from JavaScript or directly in the database server.'] },
        { doc_id: 'requirements', sentences: ['Each release needs PostgreSQL 12+ and Node 22.18+.'] },
      ]));
  });

  it('shows no line that is only a link: a contents page names the page, it says nothing', () => {
    const question = 'Does the sqlite3 connection context manager close the database when the block ends?';
    const { answer } = measure(question, [
      { chunk_id: 'library-persistence#1', doc_id: 'library-persistence', heading: 'Data Persistence', snippet: '- [`sqlite3` — DB-API 2.0 interface for SQLite databases](sqlite3.html)' },
      {
        chunk_id: 'library-sqlite3#50',
        doc_id: 'library-sqlite3',
        heading: 'How to use the connection context manager',
        snippet: 'If the body of the `with` statement raises an uncaught exception, the transaction is rolled back.',
      },
    ]);
    expect(answer).toEqual(
      noDirectAnswer([{ doc_id: 'library-sqlite3', sentences: ['If the body of the `with` statement raises an uncaught exception, the transaction is rolled back.'] }]),
    );
  });
});

describe('a closest passage shows its two sentences that best match the whole question', () => {
  it('shows the second best for the question beside the best, not a sentence for the words the best left out', () => {
    const question = 'What does the memory limit of a worker do on a laptop, and which pools does it affect?';
    const { answer } = measure(question, [
      {
        chunk_id: 'memory#0',
        doc_id: 'memory',
        heading: 'Settings',
        snippet:
          'The memory limit sets how much memory a worker may use before it is recycled. Browser pools are affected by the settings of the browser. The limit of a worker applies in the threads and forks pools, which it affects alone.',
      },
    ]);
    // No sentence words "laptop": no answer. The best sentence holds limit, worker, pool and affect;
    // what it leaves out ("memory", "laptop") is held by the first sentence alone, which holds
    // memory, limit and worker of the question: it is shown beside the best, in passage order.
    expect(answer.closest).toEqual([
      {
        doc_id: 'memory',
        sentences: [
          'The memory limit sets how much memory a worker may use before it is recycled.',
          'The limit of a worker applies in the threads and forks pools, which it affects alone.',
        ],
      },
    ]);
  });
});

describe('a closest passage words the relation asked that its best sentence does not', () => {
  it('shows the default line beside the best sentence, before a sentence that matches more words', () => {
    const question = 'How many concurrent tests run at once in a file on a laptop, and at what value by default?';
    const { answer } = measure(question, [
      {
        chunk_id: 'concurrency#0',
        doc_id: 'concurrency',
        heading: 'maxConcurrency',
        snippet: [
          '- **Default:** `5`',
          '',
          'The maximum number of concurrent tests that can run at once in a file.',
          '',
          'With parallel hooks, the concurrent tests and hooks of a file are bounded by the same limit.',
        ].join('\n'),
      },
    ]);
    // No sentence words "laptop": no answer. "With parallel hooks, ..." holds more of the question
    // than the default line, which alone words the default the question asks for.
    expect(answer.closest).toEqual([
      { doc_id: 'concurrency', sentences: ['**Default:** `5`', 'The maximum number of concurrent tests that can run at once in a file.'] },
    ]);
  });
});

describe('a closest passage keeps to one section of its chunk', () => {
  it('takes its second sentence from the best sentence\'s own subsection, not from the next option\'s', () => {
    const question = 'How long may a dead worker keep its jobs on a laptop before they are released?';
    const { answer } = measure(question, [
      {
        chunk_id: 'options#0',
        doc_id: 'options',
        heading: 'Options',
        snippet: [
          'Options of the worker.',
          '',
          '### worker.sweepThreshold',
          '',
          'How long since the last heartbeat before a dead worker has its jobs released.',
          'Defaults to 4 hours.',
          '',
          '### worker.maxMigrationWaitTime',
          '',
          'How long to wait for old workers with jobs before the migration is released.',
          'Defaults to 4 hours too.',
        ].join('\n'),
      },
    ]);
    // No sentence words "laptop": no answer. The two "How long" sentences match best, but they
    // describe two options: the passage shows the best one's option alone, with its default.
    expect(answer.closest).toEqual([
      {
        doc_id: 'options',
        sentences: ['How long since the last heartbeat before a dead worker has its jobs released.', 'Defaults to 4 hours.'],
      },
    ]);
  });
});

describe('the closest passages weigh how high the search ranked them', () => {
  it('shows the top-ranked passage before a low-ranked one whose sentence shares one more word with the question', () => {
    const question = 'How do I stop a worker from taking new jobs during a deploy?';
    const { answer } = measure(question, [
      { chunk_id: 'shutdown#0', doc_id: 'shutdown', heading: 'Shutdown', snippet: 'Send SIGTERM to a worker: it finishes its current jobs and exits.', score: 10 },
      { chunk_id: 'deploys#0', doc_id: 'deploys', heading: 'Deploys', snippet: 'A deploy restarts every worker and its jobs.', score: 5 },
    ]);
    // Half the score is a relevance of 0.5: its sentence counts 0.5^4 of what it would at the top.
    expect([answer.abstained, answer.closest?.map((passage) => passage.doc_id)]).toEqual([true, ['shutdown', 'deploys']]);
  });

  it('counts a passage no search ranked (a section read by id) as ranked at 3/4 of the top: behind the top passage here', () => {
    const question = 'How do I stop a worker from taking new jobs during a deploy?';
    const prompt = promptOf(
      question,
      [{ chunk_id: 'shutdown#0', doc_id: 'shutdown', heading: 'Shutdown', snippet: 'Send SIGTERM to a worker: it finishes its current jobs and exits.', score: 10 }],
      [{ chunk_id: 'deploys#0', doc_id: 'deploys', heading: 'Deploys', text: 'A deploy restarts every worker and its jobs.' }],
    );
    const answer = extractAnswer(analyzeQuestion(question), readConversation(prompt));
    // Counted as the top (as before), the read section's sentence, with one more of the question's words, came first.
    expect([answer.abstained, answer.closest?.map((passage) => passage.doc_id)]).toEqual([true, ['shutdown', 'deploys']]);
  });
});

describe('extractAnswer abstains when no sentence names the thing a part asks about', () => {
  const backoff: Result = {
    chunk_id: 'exponential-backoff#0',
    doc_id: 'exponential-backoff',
    heading: 'Exponential backoff',
    snippet: 'A failed job is retried with exponential backoff. We use the formula exp(least(10, attempt)) to determine the delays between attempts.',
  };

  it('abstains when the words of "the retry delay" occur only in different sentences, although every question term is in the evidence', () => {
    const { coverage: measured, answer } = measure('Can I change the retry delay for one specific task?', [
      { ...backoff, snippet: `${backoff.snippet} Each task can change its payload for one specific run.` },
    ]);
    expect(measured).toEqual({ missingAnchorShare: 0, total: 1, bestPassage: 1, placeholderMatch: 0, focusShare: 0.5 });
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });

  it('answers when one sentence names it', () => {
    const { coverage: measured, answer } = measure('Can I change the retry delay for one specific task?', [
      { ...backoff, snippet: 'You can change the retry delay of one specific task with its backoff option.' },
    ]);
    expect(measured.focusShare).toBe(1);
    expect(answer).toEqual({
      text: 'You can change the retry delay of one specific task with its backoff option. [1]',
      citations: [{ doc_id: 'exponential-backoff', quote: 'You can change the retry delay of one specific task with its backoff option.' }],
      abstained: false,
    });
  });

  it('shows the sentence that names it as the closest passage when it words only part of the question', () => {
    // "set its own" for "change ... one specific": 3 of the 5 terms, under the 90% of a direct answer.
    const { coverage: measured, answer } = measure('Can I change the retry delay for one specific task?', [
      { ...backoff, snippet: 'Each task can set its own retry delay with the `backoff` option.' },
    ]);
    expect(measured.focusShare).toBe(1);
    expect(answer).toEqual(noDirectAnswer([{ doc_id: 'exponential-backoff', sentences: ['Each task can set its own retry delay with the `backoff` option.'] }]));
  });
});

describe('directness of the answer', () => {
  const leases: Result = { chunk_id: 'leases#0', doc_id: 'leases', heading: 'Leases', snippet: 'A worker lease lasts 30 minutes by default.' };

  it('does not ask the answer for the words of the question form ("how long", "what does X mean")', () => {
    const question = 'How long does a worker lease last?';
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [leases])))).toEqual({
      text: 'A worker lease lasts 30 minutes by default. [1]',
      citations: [{ doc_id: 'leases', quote: 'A worker lease lasts 30 minutes by default.' }],
      abstained: false,
    });
  });

  it('does not ask the answer for "control" of "what does X control?", a question about what X does', () => {
    const question = 'What does `lease_seconds` control?';
    const lease: Result = { chunk_id: 'config#2', doc_id: 'config', heading: 'Worker settings', snippet: '`lease_seconds` is how long a worker holds a job before it is redelivered.' };
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [lease]))).text).toBe(
      '`lease_seconds` is how long a worker holds a job before it is redelivered. [1]',
    );
  });

  it('does not ask the answer for the kind of thing asked ("which command", "quelle commande") when it names one', () => {
    const modules: Result = { chunk_id: 'kernel#3', doc_id: 'kernel', heading: 'Kernel modules', snippet: '`lsmod` shows which kernel modules are loaded now.' };
    const english = 'Which command shows the kernel modules that are loaded now?';
    expect(extractAnswer(analyzeQuestion(english), readConversation(promptOf(english, [modules]))).text).toBe('`lsmod` shows which kernel modules are loaded now. [1]');
    const noyau: Result = { chunk_id: 'noyau#3', doc_id: 'noyau', heading: 'Modules du noyau', snippet: '`lsmod` affiche les modules du noyau chargés.' };
    const french = 'Quelle commande affiche les modules du noyau chargés ?';
    expect(extractAnswer(analyzeQuestion(french), readConversation(promptOf(french, [noyau]))).text).toBe('`lsmod` affiche les modules du noyau chargés. [1]');
    // The question's own name is not the command asked for.
    const named = 'Which command shows the modules `lsmod` lists?';
    const own: Result = { ...modules, snippet: '`lsmod` lists the kernel modules that are loaded, and shows them.' };
    expect(extractAnswer(analyzeQuestion(named), readConversation(promptOf(named, [own]))).abstained).toBe(true);
    // Without a name, or with a capitalised word of prose, the sentence does not say which command.
    for (const snippet of ['A tool shows which kernel modules are loaded now.', 'The SuperSonics tool shows which kernel modules are loaded now.']) {
      expect(extractAnswer(analyzeQuestion(english), readConversation(promptOf(english, [{ ...modules, snippet }]))).abstained).toBe(true);
    }
  });

  it('finds a call the question writes with its arguments (`f(3)`) as written, not without its parentheses', () => {
    const question = 'Will `f(3)` and `f(3.0)` share one cache entry?';
    const typed: Result = { chunk_id: 'cache#2', doc_id: 'cache', heading: 'Typed caches', snippet: 'With typed set, `f(3)` and `f(3.0)` are cached apart.' };
    const shared: Result = { chunk_id: 'cache#1', doc_id: 'cache', heading: 'Cache entries', snippet: 'One cache entry is shared by calls whose arguments are equal.' };
    const answer = extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [shared, typed])));
    expect(answer.closest?.map((passage) => passage.sentences[0])).toEqual(['With typed set, `f(3)` and `f(3.0)` are cached apart.', 'One cache entry is shared by calls whose arguments are equal.']);
  });

  it('takes "disable" for "switch off" (related-terms.ts)', () => {
    const question = 'How do I switch off the retries of a task?';
    const retries: Result = { chunk_id: 'retries#1', doc_id: 'retries', heading: 'Retries', snippet: 'Set `max_attempts` of a task to 1 to disable its retries.' };
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [retries]))).text).toBe('Set `max_attempts` of a task to 1 to disable its retries. [1]');
  });

  it('takes a number written in words for a "how long" question', () => {
    const question = 'How long does a worker lease last?';
    const words: Result = { chunk_id: 'leases#0', doc_id: 'leases', heading: 'Leases', snippet: 'A worker lease lasts sixty seconds.' };
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [words]))).text).toBe('A worker lease lasts sixty seconds. [1]');
  });

  it('judges the sentences the answer keeps within its 100 words, not one the cap drops', () => {
    const question = 'How many times is a failed job retried, and what decides the place of a job in the queue?';
    const long = `A failed job is retried 25 times with an exponential back-off ${'before it is given up for good and kept for inspection '.repeat(9).trim()}.`;
    const queue: Result = { chunk_id: 'queue#0', doc_id: 'queue', heading: 'Queue order', snippet: 'The priority of a job decides its place in the queue.' };
    const retries: Result = { chunk_id: 'retries#0', doc_id: 'retries', heading: 'Retries', snippet: long };
    const answer = extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [queue, retries])));
    // Both sentences do not fit in 100 words; the one kept does not say how many times: no direct answer.
    expect([answer.abstained, answer.abstain_reason, answer.closest?.map((passage) => passage.doc_id)]).toEqual([true, 'no direct answer', ['queue', 'retries']]);
  });
});

describe('a sentence on several pages', () => {
  const question = 'How long does a worker lease last?';
  const leases: Result = { chunk_id: 'leases#0', doc_id: 'leases', heading: 'Leases', snippet: 'A worker lease lasts 30 minutes by default.' };

  it('answers from a section copied to another page under its heading (a print view of the whole site)', () => {
    const copy: Result = { ...leases, chunk_id: 'print#12', doc_id: 'print' };
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [copy, leases])))).toEqual({
      text: 'A worker lease lasts 30 minutes by default. [1]',
      citations: [{ doc_id: 'print', quote: 'A worker lease lasts 30 minutes by default.' }],
      abstained: false,
    });
  });

  it('never quotes a note repeated under other headings (a sponsor note, a shared warning)', () => {
    const note = 'How long a worker lease lasts is asked often: ask on the forum.';
    const pages: Result[] = [
      { chunk_id: 'retries#2', doc_id: 'retries', heading: 'Retries', snippet: note },
      { chunk_id: 'deploys#4', doc_id: 'deploys', heading: 'Deploys', snippet: note },
      { ...leases, snippet: 'Leases are renewed by heartbeats.' },
    ];
    const answer = extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, pages)));
    expect([answer.abstained, answer.closest?.flatMap((passage) => passage.sentences)]).toEqual([true, ['Leases are renewed by heartbeats.']]);
  });
});

describe('a reference of keys written as fields (Cargo\'s configuration reference)', () => {
  const text = [
    'The `[build]` table controls build-time operations and compiler settings.',
    '',
    '#### `build.jobs`',
    '',
    '- Type: integer or string',
    '',
    '- Default: number of logical CPUs',
    '',
    'Sets the maximum number of compiler processes to run in parallel.',
    '',
    '#### `build.rustc`',
    '',
    '- Type: string (program path)',
    '',
    '- Default: `"rustc"`',
    '',
    'Sets the executable to use for `rustc`.',
    '',
    '#### `build.rustc-wrapper`',
    '',
    '- Default: none',
    '',
    'Sets a wrapper to execute instead of `rustc`.',
  ].join('\n');
  // The search labelled the chunk with the section where it matched (`build.jobs`): that heading is
  // not above the chunk's other sections.
  const read = { chunk_id: 'config#15', doc_id: 'config', heading: 'build.jobs', heading_path: 'Configuration > [build] > build.jobs', text };

  it.each([
    ['What is the default value of build.jobs?', 'Default: number of logical CPUs'],
    ['What is the default value of build.rustc?', 'Default: `"rustc"`'],
  ])('answers %s with its own field line, in words or as code', (question, first) => {
    const prompt = promptOf(question, [{ chunk_id: 'config#15', doc_id: 'config', heading: 'build.jobs', heading_path: 'Configuration > [build] > build.jobs', snippet: 'Sets the maximum number' }], [read]);
    const answer = extractAnswer(analyzeQuestion(question), readConversation(prompt));
    expect([answer.abstained, answer.citations[0]?.quote]).toEqual([false, first]);
  });
});

describe('a hit labelled with the heading a chunk ends with (a section with nothing under it yet)', () => {
  it('puts none of the chunk\'s sentences under that heading', () => {
    // The Python docs' functools page: the cmp_to_key chunk ends with the next function's heading.
    const question = 'How many results does `@functools.lru_cache` keep?';
    const text = ['Transform an old-style comparison function to a key function.', '', '## @functools.lru_cache(user_function)'].join('\n');
    const hit = { chunk_id: 'library-functools#4', doc_id: 'library-functools', heading: '@functools.lru_cache(user_function)', heading_path: 'functools > functools.cmp_to_key(func)' };
    const view = new EvidenceView(analyzeQuestion(question), readConversation(promptOf(question, [{ ...hit, snippet: 'Transform an old-style' }], [{ ...hit, text }])), undefined);
    expect(view.sentences.filter((sentence) => !sentence.heading).map((sentence) => [sentence.text, sentence.contextText])).toEqual([
      ['Transform an old-style comparison function to a key function.', 'functools > functools.cmp_to_key(func) '],
    ]);
  });
});

describe('"What does X do?" of a subject in plain words', () => {
  it('answers with the first sentence of the page titled with it (a man page\'s NAME line), not its usage line', () => {
    const question = 'What does cargo yank do?';
    const answer = extractAnswer(
      analyzeQuestion(question),
      readConversation(
        promptOf(question, [
          { chunk_id: 'cargo-yank#1', doc_id: 'cargo-yank', heading: 'SYNOPSIS', heading_path: 'cargo yank > SYNOPSIS', snippet: '`cargo yank` [options] crate@version `cargo yank` [options] `--version` version [crate]' },
          { chunk_id: 'registry-api#5', doc_id: 'registry-api', heading: 'Yank', heading_path: 'Registry Web API > Yank', snippet: 'The yank endpoint will set the `yank` field of the given version of a crate to `true` in the index.' },
          { chunk_id: 'cargo-yank#0', doc_id: 'cargo-yank', heading: 'NAME', heading_path: 'cargo yank > NAME', snippet: 'cargo-yank — Remove a pushed crate' },
        ], [{ chunk_id: 'cargo-yank#0', doc_id: 'cargo-yank', heading: 'NAME', text: 'cargo-yank — Remove a pushed crate from the index' }]),
      ),
    );
    expect(answer.citations.map((citation) => citation.quote)).toEqual(['cargo-yank — Remove a pushed crate from the index']);
  });
});

describe('a follow-up\'s direct answer', () => {
  /** The offline planner's answer to `followUp` after `earlier`, shown `results` by the search of the expanded follow-up. */
  function answerFollowUp(earlier: string, followUp: string, results: Result[]) {
    const asked = analyzeQuestion(followUp);
    const searched = withEarlierTurns(asked, { earlierQuestions: [earlier] });
    return extractAnswer(answerAnalysis(asked, searched), readConversation(promptOf(searched.question, results)));
  }
  const intro: Result = { chunk_id: 'api-client#0', doc_id: 'api-client', heading: 'Client API', snippet: '' };
  const cancel: Result = {
    chunk_id: 'api-client#4',
    doc_id: 'api-client',
    heading: 'Looking up and cancelling jobs',
    snippet: '`cancel` removes a queued job; a job that is already running finishes its attempt but is not retried.',
  };

  it('is one sentence that does what the follow-up asks to the earlier subject: one borrowed word is enough of the subject', () => {
    // "`cancel` removes a queued job" holds "job", not "orbit" or "enqueue": the borrowed words count as one term.
    expect(answerFollowUp('How do I enqueue a job in Orbit 3.x?', 'and how do I cancel it?', [cancel])).toEqual({
      text: '`cancel` removes a queued job; a job that is already running finishes its attempt but is not retried. [1]',
      citations: [{ doc_id: 'api-client', quote: cancel.snippet }],
      abstained: false,
    });
  });

  it('prefers the sentence whose code names the call asked for to one that lists it among the subject\'s words', () => {
    const lists: Result = { ...intro, snippet: '`orbit.Client` is the entry point for application code: it looks jobs up and cancels them.' };
    const top: Result = { chunk_id: 'api-client#1', doc_id: 'api-client', heading: 'Creating a client', snippet: 'A client takes the URL of the broker it talks to.' };
    const answer = answerFollowUp('How do I enqueue a job in Orbit 3.x?', 'and how do I cancel it?', [top, lists, cancel]);
    expect(answer.citations.map((citation) => citation.quote)).toEqual([cancel.snippet]);
  });

  it('needs all of the subject when the follow-up asks nothing of its own ("and how do I fix it?")', () => {
    const raises: Result = { chunk_id: 'flows#2', doc_id: 'flows', heading: 'Results', snippet: 'A flow step whose result is too big raises `ORB-1202`.' };
    const fixed: Result = { chunk_id: 'notes#4', doc_id: 'notes', heading: 'Fixes', snippet: 'Fixed expired results not being removed from the results backend.' };
    const answer = answerFollowUp('Which error does a flow step raise when its result is too big?', 'and how do I fix it?', [raises, fixed]);
    expect([answer.abstained, answer.abstain_reason, answer.closest?.map((passage) => passage.doc_id)]).toEqual([true, 'no direct answer', ['flows', 'notes']]);
  });
});

describe('a table row in an answer', () => {
  it('reads with its column names, and its quote is the row as the docs write it', () => {
    const question = 'What is the default maxPoolSize option?';
    const table: Result = {
      chunk_id: 'options#0',
      doc_id: 'options',
      heading: 'Pool options',
      snippet: '| Option | Default | Meaning |\n|---|---|---|\n| `maxPoolSize` | 10 | Connections in the pool; defaults to 10. |\n| `minPoolSize` | 0 | Idle connections kept. |',
    };
    expect(extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [table])))).toEqual({
      text: 'Option: `maxPoolSize`; Default: 10; Meaning: Connections in the pool; defaults to 10. [1]',
      citations: [{ doc_id: 'options', quote: '| `maxPoolSize` | 10 | Connections in the pool; defaults to 10. |' }],
      abstained: false,
    });
  });
});

describe('what a direct answer needs (Session 13, docs/calibration.md)', () => {
  const results: Result = {
    chunk_id: 'api-results#3',
    doc_id: 'api-results',
    heading: 'Passing large data between flow steps',
    snippet:
      'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. Return a reference instead, and let the downstream step load it:\n\n```python\nrows = query_orders(date)\nreturn orbit.results.put_blob(rows)\n```',
  };

  it('shows a short example with the sentence that introduces it, and quotes both as the docs write them', () => {
    const question = 'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';
    const { answer } = measure(question, [results]);
    expect(answer.text).toBe(
      'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. [1] Return a reference instead, and let the downstream step load it: `rows = query_orders(date)` `return orbit.results.put_blob(rows)` [2]',
    );
    expect(answer.citations.map((citation) => citation.quote)).toEqual([
      'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work.',
      'Return a reference instead, and let the downstream step load it:\n\n```python\nrows = query_orders(date)\nreturn orbit.results.put_blob(rows)\n```',
    ]);
  });

  it('ends a sentence that introduces a longer example with a full stop, the example left out (its words still count)', () => {
    const longer: Result = { ...results, snippet: results.snippet.replace('rows = query_orders(date)\n', 'import orbit\n\n@etl.step()\ndef extract(ctx):\n    rows = query_orders(date)\n') };
    const question = 'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';
    const { answer } = measure(question, [longer]);
    expect(answer.text).toBe('A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work. [1] Return a reference instead, and let the downstream step load it. [2]');
    expect(answer.citations.map((citation) => citation.quote)).toEqual([
      'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work.',
      'Return a reference instead, and let the downstream step load it:',
    ]);
  });

  it('never quotes a sentence whose statement is the code after it ("... is roughly equivalent to:")', () => {
    // The Python docs' itertools page (python3.11-doc), the search ranking the code's section first.
    const equivalent: Result = {
      chunk_id: 'library-itertools#16',
      doc_id: 'library-itertools',
      heading: 'itertools.groupby(iterable, key=None)',
      snippet: '`groupby()` is roughly equivalent to:\n\n```\nclass groupby:\n    def __init__(self, iterable, key=None):\n        self.keyfunc = key\n```',
    };
    const lead: Result = {
      chunk_id: 'library-itertools#15',
      doc_id: 'library-itertools',
      heading: 'itertools.groupby(iterable, key=None)',
      snippet: 'Make an iterator that returns consecutive keys and groups from the iterable. The key is a function computing a key value for each element.',
    };
    const question = 'What does itertools.groupby return?';
    const answer = extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [equivalent, lead])));
    expect(answer.citations.map((citation) => citation.quote)).toEqual([
      'Make an iterator that returns consecutive keys and groups from the iterable.',
      'The key is a function computing a key value for each element.',
    ]);
    // A sentence that says something before its example stays quotable (the test above).
    const view = new EvidenceView(analyzeQuestion(question), readConversation(promptOf(question, [equivalent, results])), undefined);
    expect(view.sentences.filter((sentence) => sentence.introducesCode).map((sentence) => [sentence.text, quotableSentence(sentence, [])])).toEqual([
      ['`groupby()` is roughly equivalent to:', false],
      ['Return a reference instead, and let the downstream step load it:', true],
    ]);
  });

  it('does not take the question\'s key names from the example: those must be written in prose or a heading', () => {
    const analysis = analyzeQuestion('What does `put_blob` return in a flow step?');
    const view = new EvidenceView(analysis, readConversation(promptOf(analysis.question, [results])), undefined);
    const introducing = view.sentences.find((sentence) => sentence.text.startsWith('Return a reference'));
    expect(introducing?.introducesCode).toBe(true);
    expect(analysis.keyTerms).toEqual(['put', 'blob']);
    // The headings' words, then the example's, less the question's key names (`put_blob`).
    expect([...introducing!.context]).toEqual(['pass', 'larg', 'data', 'between', 'flow', 'step', 'row', 'query', 'order', 'dat', 'return', 'orbit', 'result']);
  });

  it('leaves out a further sentence that only points to another page', () => {
    const pointer: Result = {
      chunk_id: 'leases#2',
      doc_id: 'leases',
      heading: 'Lease duration',
      snippet: 'A worker lease lasts 30 minutes by default. Lease renewal and expiry are described in [Heartbeats](heartbeats.md).',
    };
    const { answer } = measure('How many minutes does a worker lease last by default, and what renews a lease?', [pointer]);
    // The pointer would hold "renew": without it the sentence holds too little, so the closest passage
    // is shown, where the pointer follows its sentence as a reader reads on: it says where to look.
    expect(answer).toEqual(noDirectAnswer([{ doc_id: 'leases', sentences: ['A worker lease lasts 30 minutes by default.', 'Lease renewal and expiry are described in [Heartbeats](heartbeats.md).'] }]));
  });
});

describe('statesAnswer', () => {
  const features = { ownCover: 1, contextCover: 0.9, firstCover: 1, anchors: 0.5, relations: 1, answerKind: 1, rank: 1 };
  it('answers when the sentences hold 90% of the question with half of its names, and not with fewer', () => {
    expect([statesAnswer(features), statesAnswer({ ...features, anchors: 0.49 }), statesAnswer({ ...features, contextCover: 0.89 }), statesAnswer({ ...features, answerKind: 0 })]).toEqual([true, false, false, false]);
  });
});

describe('a question that asks what something is or does', () => {
  const text = [
    '```ts',
    'function fn(fn?: Procedure | Constructable): Mock',
    '```',
    '',
    '- **Type:** `Mock`',
    '',
    'Creates a spy on a function, but can also be initiated without one. Every time a function is invoked, it stores its call arguments, returns, and instances.',
    'If no function is given, mock will return `undefined` when invoked.',
    '',
    'You can also pass down a class to `vi.fn`:',
    '',
    '### Classes',
    '',
    'A class passed to `vi.fn` keeps its prototype chain.',
  ].join('\n');
  const read = { chunk_id: 'api-vi#17', doc_id: 'api-vi', heading: 'vi.fn', heading_path: 'Vi > Mocking Functions and Objects > vi.fn', text };

  it('marks the first prose sentence under each heading as a lead, past a signature and field lines', () => {
    const analysis = analyzeQuestion('What does `vi.fn` do?');
    const conversation = readConversation(promptOf(analysis.question, [{ chunk_id: read.chunk_id, doc_id: read.doc_id, heading: read.heading, snippet: 'If no function is given' }], [read]));
    const view = new EvidenceView(analysis, conversation, undefined);
    expect(view.sentences.filter((sentence) => sentence.leadOf !== undefined).map((sentence) => [sentence.leadOf, sentence.text])).toEqual([
      ['vi.fn', 'Creates a spy on a function, but can also be initiated without one.'],
      ['classes', 'A class passed to `vi.fn` keeps its prototype chain.'],
    ]);
  });

  it('answers with the lead sentence of the section its heading names, not a later sentence or a subsection\'s lead that repeats the name', () => {
    const question = 'What does `vi.fn` do?';
    const conversation = readConversation(promptOf(question, [{ chunk_id: read.chunk_id, doc_id: read.doc_id, heading: read.heading, snippet: 'If no function is given' }], [read]));
    const answer = extractAnswer(analyzeQuestion(question), conversation);
    expect(answer.text.split(' [1]')[0]).toBe('Creates a spy on a function, but can also be initiated without one.');
  });

  it('has no lead under the chunk\'s own heading when only a snippet of it was shown', () => {
    const analysis = analyzeQuestion('What does `vi.fn` do?');
    const conversation = readConversation(promptOf(analysis.question, [{ chunk_id: read.chunk_id, doc_id: read.doc_id, heading: read.heading, snippet: 'Every time a function is invoked, it stores its call arguments.' }]));
    expect(new EvidenceView(analysis, conversation, undefined).sentences.filter((sentence) => sentence.leadOf !== undefined)).toEqual([]);
  });
});

describe('a how-to question', () => {
  it('answers with the sentence that opens with the action asked as its purpose ("To mock a module ..."), not one that mentions it in passing', () => {
    const question = 'How do I mock a module?';
    const results: Result[] = [
      { chunk_id: 'mocking#5', doc_id: 'mocking', heading: 'Mock part of a module', score: 12, snippet: 'In this example, if `original` calls `mocked` internally, it will always call the function defined in the module, not in the mock factory.' },
      { chunk_id: 'mocking-modules#1', doc_id: 'mocking-modules', heading: 'Mocking Modules', score: 10, snippet: 'To mock a module completely, you can use the `vi.mock` API.' },
    ];
    const answer = extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, results)));
    expect(answer.citations.map((citation) => citation.quote)).toEqual(['To mock a module completely, you can use the `vi.mock` API.']);
  });
});

describe('a question that asks a default', () => {
  const read = {
    chunk_id: 'config-benchmark#3',
    doc_id: 'config-benchmark',
    heading: 'benchmark.enabled',
    heading_path: 'benchmark | Config > benchmark.enabled',
    text: '- **Type:** `boolean`\n- **Default:** `false`\n\nInclude benchmark files when running tests in watch mode.',
  };
  const ask = (question: string) => extractAnswer(analyzeQuestion(question), readConversation(promptOf(question, [{ chunk_id: read.chunk_id, doc_id: read.doc_id, heading: read.heading, snippet: 'Include benchmark files' }], [read])));

  it('answers with the field line that gives it first, a literal as much a value as a number', () => {
    const answer = ask('What is the default value of `benchmark.enabled`?');
    expect([answer.text, answer.citations.map((citation) => citation.quote)]).toEqual([
      'Default: `false` [1] Include benchmark files when running tests in watch mode. [2]',
      ['**Default:** `false`', 'Include benchmark files when running tests in watch mode.'],
    ]);
  });

  it('does not quote a field line that states nothing asked (the type, for a question about the default)', () => {
    const answer = ask('What is the default value of `benchmark.enabled`?');
    expect(answer.citations.some((citation) => citation.quote.includes('Type'))).toBe(false);
  });
});

describe('extractAnswer names the attribute a question asks for', () => {
  const person: Result = {
    chunk_id: 'kim-jong-chul#0',
    doc_id: 'kim-jong-chul',
    heading: 'Kim Jong-chul',
    snippet: 'Kim Jong-chul (born 25 September 1981) is a son of former North Korean Supreme Leader Kim Jong-il.',
  };

  it('shows the closest passage when the sentence speaks of the person but names no wife', () => {
    expect(measure('Who is the wife of Kim Jong-chul?', [person]).answer).toEqual(
      noDirectAnswer([{ doc_id: 'kim-jong-chul', sentences: ['Kim Jong-chul (born 25 September 1981) is a son of former North Korean Supreme Leader Kim Jong-il.'] }]),
    );
  });

  it('answers when the sentence says whom he married', () => {
    const married = { ...person, snippet: 'Kim Jong-chul married Ri Hyon-a, a pianist, in 2012.' };
    expect(measure('Who is the wife of Kim Jong-chul?', [married]).answer).toEqual({
      text: 'Kim Jong-chul married Ri Hyon-a, a pianist, in 2012. [1]',
      citations: [{ doc_id: 'kim-jong-chul', quote: 'Kim Jong-chul married Ri Hyon-a, a pianist, in 2012.' }],
      abstained: false,
    });
  });
});

describe('shortExample', () => {
  it('finds the code block after a sentence wrapped over lines, and quotes both as written', () => {
    const text = 'To create one, run the `venv` module\nwith the directory path:\n\n```\npython3 -m venv tutorial-env\n```\n\nThis creates the folder.';
    expect(shortExample([text], 'To create one, run the `venv` module with the directory path:')).toEqual({
      lines: ['python3 -m venv tutorial-env'],
      quote: 'To create one, run the `venv` module\nwith the directory path:\n\n```\npython3 -m venv tutorial-env\n```',
    });
  });

  it('reads a shell line continued with a backslash as one command', () => {
    const text = 'Start a broker:\n\n```sh\ndocker run -d redis:7 \\\n  redis-server --maxmemory-policy noeviction\n```';
    expect(shortExample([text], 'Start a broker:')?.lines).toEqual(['docker run -d redis:7 redis-server --maxmemory-policy noeviction']);
  });

  it('leaves out an example of more than two lines, one holding a backtick, and a sentence with no code block after it', () => {
    expect(shortExample(['Like this:\n\n```\na = 1\nb = 2\nc = 3\n```'], 'Like this:')).toBeUndefined();
    expect(shortExample(['Like this:\n\n```\necho `date`\n```'], 'Like this:')).toBeUndefined();
    expect(shortExample(['Like this: see below.\n\nText.'], 'Like this:')).toBeUndefined();
    // A diff shows two versions (VitePress's `// [!code --]` and `// [!code ++]`), not one to quote.
    expect(shortExample(["Change it:\n\n```ts\nimport { a } from 'x' // [!code --]\nimport { a } from 'y' // [!code ++]\n```"], 'Change it:')).toBeUndefined();
  });

  it('shows an example line without VitePress\'s notation comments', () => {
    expect(shortExample(['For example:\n\n```ts\nvi.hoisted(() => { value }) // throws an error // [!code warning]\n```'], 'For example:')?.lines).toEqual(['vi.hoisted(() => { value }) // throws an error']);
  });
});
