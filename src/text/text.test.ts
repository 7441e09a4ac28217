import { describe, expect, it } from 'vitest';
import { entities, linkTexts } from './names.ts';
import { contentTerms, identifiers, sentences, sentenceUnits, stem, withinWordLimit, wordCount, words } from './text.ts';

describe('identifiers', () => {
  it('finds error codes, TOML keys, env vars, snake_case, dotted names and CamelCase', () => {
    const text =
      'A step fails with `ORB-1202 PayloadTooLarge` when over [limits] max_payload_kb; 2.x used ORBIT_MAX_PAYLOAD. ' +
      'Quartz reads quartz.scheduler.idleWaitTime and calls orbit.results.put_blob(). See results-backend.md.';
    expect(identifiers(text)).toEqual([
      'ORB-1202 PayloadTooLarge',
      'ORB-1202',
      'PayloadTooLarge',
      '[limits] max_payload_kb',
      'max_payload_kb',
      'ORBIT_MAX_PAYLOAD',
      'quartz.scheduler.idleWaitTime',
      'idleWaitTime',
      'orbit.results.put_blob()',
      'put_blob',
    ]);
  });

  it('pairs the backticks of every code span, a long one too: the prose between two spans is no code', () => {
    const text = "I declared `parser.add_argument('--verbose', type=bool)` and `--verbose False` still gives me `True`.";
    expect(identifiers(text)).toEqual(['parser.add_argument', 'add_argument', '--verbose False', 'True']);
  });
});

describe('stem', () => {
  it('reads a Japanese verb stem as its dictionary form, and leaves Chinese and kanji words alone', () => {
    expect(['渡し', '渡す', '書か', '書き', '参照', '借用', '代わ'].map(stem)).toEqual(['渡す', '渡す', '書く', '書く', '参照', '借用', '代う']);
    expect(contentTerms('何を渡しますか')).toEqual(contentTerms('参照を渡す').slice(-1));
  });
});

describe('entities', () => {
  it('finds runs of capitalised words, keeping "of" inside names and skipping sentence-start function words', () => {
    expect(entities('Hello Love is a song by Hank Snow. He died in Madison, Tennessee, near the Treaty of Rome museum.')).toEqual([
      'Hello Love',
      'Hank Snow',
      'Madison',
      'Tennessee',
      'Treaty of Rome',
    ]);
  });

  it('ends a name at its possessive', () => {
    expect(entities("Who was the first president of Damerjog's country? Big Eye's main director saw Orbit’s lease. It's late.")).toEqual(['Damerjog', 'Big Eye', 'Orbit']);
    expect(entities("Get a certificate from Let's Encrypt. There's one.")).toEqual(['Encrypt']);
  });

  it('takes no acronym with a lower-case tail for a name, and keeps a hyphenated name', () => {
    expect(entities('Would marking my CPU-heavy tests help, with the VM-based pool on Kim Jong-chul\'s GPU?')).toEqual(['Kim Jong-chul', 'GPU']);
  });

  it('does not take the pronoun I with a contraction for a name', () => {
    expect(entities("On Travis CI I'd like it to stop. A function I'm testing calls Redis, and I've seen I’ll.")).toEqual(['Travis CI', 'Redis']);
  });
});

describe('sentences', () => {
  it('ends sentences in every script: a capital of any cased script, a letter of a script without case, the danda and the other scripts\' full stops', () => {
    expect(sentences('Это первое предложение. Это второе предложение.')).toEqual(['Это первое предложение.', 'Это второе предложение.']);
    expect(sentences('Première phrase ici. À partir de là, rien ne change.')).toEqual(['Première phrase ici.', 'À partir de là, rien ne change.']);
    expect(sentences('दिल्ली का इतिहास बहुत पुराना है। मुगल सम्राट ने लाल किला बनवाया था।')).toEqual(['दिल्ली का इतिहास बहुत पुराना है।', 'मुगल सम्राट ने लाल किला बनवाया था।']);
    expect(sentences('مرحبا بكم في الدليل. هذا هو القسم الثاني؟ نعم هو كذلك.')).toEqual(['مرحبا بكم في الدليل.', 'هذا هو القسم الثاني؟', 'نعم هو كذلك.']);
    expect(sentences('Τι είναι αυτό το εργαλείο; Δεύτερη πρόταση εδώ.')).toEqual(['Τι είναι αυτό το εργαλείο;', 'Δεύτερη πρόταση εδώ.']);
    expect(sentences('ประเทศไทยมีประชากรประมาณเจ็ดสิบล้านคน กรุงเทพมหานครเป็นเมืองหลวง')).toEqual(['ประเทศไทยมีประชากรประมาณเจ็ดสิบล้านคน', 'กรุงเทพมหานครเป็นเมืองหลวง']);
    expect(sentences('包括了斯蒂芬．瑞士的作品。这是第二个句子。')).toEqual(['包括了斯蒂芬．瑞士的作品。', '这是第二个句子。']);
    // Lower case after a full stop is no new sentence in a cased script ("e.g. this").
    expect(sentences('Then run the job. e.g. this stays with it.')).toEqual(['Then run the job. e.g. this stays with it.']);
  });

  it('splits prose, list items and table rows into quotable substrings', () => {
    const text = 'First sentence here. Second one follows!\n- a list item with words\n| `ORB-1202` | PayloadTooLarge |\n|---|---|';
    const units = sentences(text);
    expect(units).toEqual(['First sentence here.', 'Second one follows!', 'a list item with words', '| `ORB-1202` | PayloadTooLarge |']);
    for (const unit of units) expect(text.includes(unit)).toBe(true);
  });

  it('joins hard-wrapped paragraph lines, splits a collapsed list, and drops a fragment cut by "…"', () => {
    expect(sentences('A step that returns a large value fails with\n`ORB-1202` after it ran. Store it elsewhere.')).toEqual([
      'A step that returns a large value fails with `ORB-1202` after it ran.',
      'Store it elsewhere.',
    ]);
    expect(sentences('…if one of these is true: - Side effects appear twice. - A worker logs `ORB-1101` on ack. - The counter incr…')).toEqual([
      'if one of these is true:',
      'Side effects appear twice.',
      'A worker logs `ORB-1101` on ack.',
    ]);
  });

  it('ends no sentence at the dot of an abbreviation or an initial, but at "etc." before a capital', () => {
    // Split after "e.g.", the rest ("`coro()` instead ... scheduled.") was a sentence of its own
    // and "(e.g." a fragment too short to quote: the sentence was lost.
    expect(sentences('When a coroutine is not awaited (e.g. `coro()` instead of `await coro()`) a warning is emitted. Use a tool (e.g. Make) here.')).toEqual([
      'When a coroutine is not awaited (e.g. `coro()` instead of `await coro()`) a warning is emitted.',
      'Use a tool (e.g. Make) here.',
    ]);
    expect(sentences('Hugo S. Sims, Jr. of the 2nd district was defeated. The libretto is by J. D. McClatchy and Thomas Meehan.')).toEqual([
      'Hugo S. Sims, Jr. of the 2nd district was defeated.',
      'The libretto is by J. D. McClatchy and Thomas Meehan.',
    ]);
    // A capital after `_` or `\` is part of a name, no initial.
    expect(sentences('Useful details like duration, memory usage, etc. If the module did not run, all are zero. Select data_Y. Then enter it.')).toEqual([
      'Useful details like duration, memory usage, etc.',
      'If the module did not run, all are zero.',
      'Select data_Y.',
      'Then enter it.',
    ]);
  });

  it('splits a snippet whose table lost its line breaks between rows', () => {
    expect(sentences('| Code | Name | | `ORB-1101` | LeaseExpired | | `ORB-1202` | PayloadTooLarge |')).toEqual([
      '| Code | Name |',
      '| `ORB-1101` | LeaseExpired |',
      '| `ORB-1202` | PayloadTooLarge |',
    ]);
  });
});

describe('stem and linkTexts', () => {
  it('strips common suffixes so inflections match', () => {
    expect(['lived', 'lives', 'retries', 'retry', 'running', 'leases', 'class'].map(stem)).toEqual([
      'liv', 'liv', 'retry', 'retry', 'run', 'leas', 'class',
    ]);
  });

  it('reads the names of linked pages', () => {
    expect(linkTexts('See [Results backend](results-backend.md) and [`orbit.toml`](toml-config.md).')).toEqual([
      'Results backend',
      'orbit.toml',
    ]);
    // Links to other sites lead out of the docs: they name no page to search for.
    expect(linkTexts('[sponsoring](https://github.com/sponsors/benjie), [mail](mailto:a@b.c), [Jobs](../jobs.md#view)')).toEqual(['Jobs']);
  });
});

describe('sentenceUnits', () => {
  it('keeps a table row whole, whatever sentences its cells hold, with its header row; the header row is heading-like', () => {
    const text = 'Options:\n\n| Option | Meaning |\n|---|---|\n| `--args JSON` | Arguments as a JSON object or array. Defaults to no arguments. |\n| `--queue NAME` | Target queue (default `default`). |\n\nAfter the table.';
    expect(sentenceUnits(text)).toEqual([
      { text: '| Option | Meaning |', code: false, isHeading: true },
      { text: '| `--args JSON` | Arguments as a JSON object or array. Defaults to no arguments. |', code: false, tableHeader: '| Option | Meaning |' },
      { text: '| `--queue NAME` | Target queue (default `default`). |', code: false, tableHeader: '| Option | Meaning |' },
      { text: 'After the table.', code: false },
    ]);
  });

  it('reads the rows of a snippet\'s collapsed table, its delimiter row left out', () => {
    expect(sentenceUnits('| Code | Meaning | | --- | --- | | `ORB-1202` | PayloadTooLarge: the result is over the limit. |')).toEqual([
      { text: '| Code | Meaning |', code: false, isHeading: true },
      { text: '| `ORB-1202` | PayloadTooLarge: the result is over the limit. |', code: false, tableHeader: '| Code | Meaning |' },
    ]);
  });

  it('keeps a list item with its wrapped lines, and marks headings and the heading each unit sits under', () => {
    const text = '### worker.maxPoolSize\n\nType: `number`\nDefault value: `10`\n\n- `job_key_preserve_run_at` - an optional boolean detailing if the `run_at`\n  should be preserved\n- `flags` - tags';
    expect(sentenceUnits(text)).toEqual([
      { text: 'worker.maxPoolSize', code: false, isHeading: true },
      { text: 'Type: `number` Default value: `10`', code: false, heading: 'worker.maxPoolSize' },
      { text: '`job_key_preserve_run_at` - an optional boolean detailing if the `run_at` should be preserved', code: false, heading: 'worker.maxPoolSize' },
      { text: '`flags` - tags', code: false, heading: 'worker.maxPoolSize' },
    ]);
  });
});

describe('text without spaces', () => {
  it('reads Chinese and Japanese as bigrams beside the words of other text', () => {
    expect(words('Set max_payload_kb 设置负载')).toEqual(['set', 'max', 'payload', 'kb', '设置', '置负', '负载']);
    expect(words('東京です')).toEqual(['東京', '京で', 'です']);
    // Content terms: bigrams inside ICU's words (its dictionary cuts 战国|无|双|3|是|由|哪|两个|公司|开发|的), no question word;
    // single characters in a row that are not function words (无|双) read as one word, a name ICU does not know.
    expect(contentTerms('战国无双3是由哪两个公司开发的？')).toEqual(['战国', '无双', '公司', '开发']);
    expect(contentTerms('真君大帝本名叫什么？')).toEqual(['真君', '大帝']); // 真|君 joined again, 本 alone, 名叫 a function word
    expect(contentTerms('吴淞路闸桥原来的地址在哪里？')).toEqual(['吴淞', '淞路', '路闸', '闸桥', '原来', '地址']); // ICU: 吴|淞|路|闸|桥
    // Traditional characters: the same function words (這個, 時候) and question words (什麼, 誰).
    expect(contentTerms('這個模式是由誰改編的？')).toEqual(['模式', '改編']);
    expect(contentTerms('餘蔚在什麼時候被任命當了太傅？')).toEqual(['餘蔚', '任命', '當了', '太傅']);
    // Japanese hiragana words are grammar (です, した, の) or question words (いつ): no content term.
    expect(contentTerms('富士山の標高は何メートルですか？')).toEqual(['富士', '士山', '標高', 'メー', 'ート', 'トル']);
    expect(contentTerms('東京タワーを設計したのはいつですか？')).toEqual(['東京', '京タ', 'タワ', 'ワー', '設計']);
    // Katakana in a row is one word: ICU cuts the loanword クロージャ (closure) as ク|ロー|ジャ.
    expect(contentTerms('Rustにおけるクロージャとは何ですか？')).toEqual(['rust', 'クロ', 'ロー', 'ージ', 'ジャ']);
  });

  it('splits Chinese sentences at 。！？, a closing quote kept with its sentence, each an exact substring', () => {
    const text = '锣鼓经是常用的打击乐记谱方法。常用的节奏型称为「锣鼓点」。他说：“真好听！”然后走了很远很远？';
    expect(sentences(text)).toEqual(['锣鼓经是常用的打击乐记谱方法。', '常用的节奏型称为「锣鼓点」。', '他说：“真好听！”', '然后走了很远很远？']);
  });
});

describe('words of scripts with combining marks', () => {
  it('keeps a Hindi or Tamil word\'s vowel signs and viramas, and folds away accents and Arabic harakat', () => {
    expect(words('लाल किला, कला और काला')).toEqual(['लाल', 'किला', 'कला', 'और', 'काला']);
    expect(words('क़ुतुब कुतुब कहाँ कहां')).toEqual(['कुतुब', 'कुतुब', 'कहां', 'कहां']);
    expect(words('தமிழ் மொழி')).toEqual(['தமிழ்', 'மொழி']);
    expect(words('كَتَبَ الكتاب naïve Aschenbrödel')).toEqual(['كتب', 'الكتاب', 'naive', 'aschenbrodel']);
  });
});

describe('wordCount', () => {
  it('counts the words between spaces, and the words of Intl.Segmenter in text without spaces', () => {
    expect(wordCount('Leases last 30 s.')).toBe(4);
    expect(wordCount('Set `max_payload_kb` to 5_000 — at most.')).toBe(6); // an identifier and a number are one word each; a dash is none
    // ICU cuts the Han runs 战国|无|双, 是|由|光荣|和, 开发|的|战国|无|双|系列|的|正统|第三|续|作; `3》` and `ω-force` are a word each
    expect(wordCount('《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三续作。')).toBe(20);
    expect(wordCount('東京です')).toBe(2);
    expect(wordCount('')).toBe(0);
  });

  it('cuts a text after its n-th word, in any script', () => {
    expect(withinWordLimit('Leases last 30 s.', 2)).toBe('Leases last …');
    expect(withinWordLimit('Leases last 30 s.', 4)).toBe('Leases last 30 s.');
    expect(withinWordLimit('是由光荣开发的 ω-force', 3)).toBe('是由光荣 …');
    expect(withinWordLimit('设置max_payload_kb为10', 2)).toBe('设置max_payload_kb …');
  });
});
