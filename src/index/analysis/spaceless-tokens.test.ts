import { describe, expect, it } from 'vitest';
import { createFts5Tokenizer } from './fts5-tokens.ts';

const ingest = createFts5Tokenizer({ porter: true, spaceless: 'ingest' });
const query = createFts5Tokenizer({ porter: true, spaceless: 'query' });
const fts5 = createFts5Tokenizer({ porter: true });

describe('createFts5Tokenizer with spaceless', () => {
  it('reads Han and kana as bigrams, with their characters at ingest, and a lone character as itself', () => {
    expect(ingest.tokens('北京大学')).toEqual(['北京', '北', '京大', '京', '大学', '大', '学']);
    expect(query.tokens('北京大学')).toEqual(['北京', '京大', '大学']);
    expect(query.tokens('茶')).toEqual(['茶']);
    expect(query.tokens('東京都は日本の首都です')).toEqual(['東京', '京都', '都は', 'は日', '日本', '本の', 'の首', '首都', '都で', 'です']);
    expect(query.tokens('𠀀𠀁x')).toEqual(['𠀀𠀁', 'x']);
    expect(ingest.count('北京大学')).toBe(7);
  });

  it('reads Thai through the segmenter, vowel signs kept, where FTS5 cuts words at them', () => {
    expect(query.tokens('ภาษาไทยเป็นภาษาที่สวยงาม')).toEqual(['ภาษา', 'ไทย', 'เป็น', 'ภาษา', 'ที่', 'สวยงาม']);
    expect(fts5.tokens('ภาษาไทยเป็นภาษาที่สวยงาม')).toEqual(['ภาษาไทยเป', 'นภาษาท', 'สวยงาม']);
  });

  it('splits an identifier and a Latin word from the Chinese around them, stemmed as FTS5 stems them', () => {
    expect(query.tokens('使用Redis缓存retries，设置max_payload_kb为10KB')).toEqual(['使用', 'redi', '缓存', 'retri', '设置', 'max', 'payload', 'kb', '为', '10kb']);
    expect(fts5.tokens('使用Redis缓存')).toEqual(['使用redis缓存']);
  });

  it('gives FTS5 tokens token for token for text of other scripts, but folds the accents of every script as FTS5 folds Latin ones', () => {
    const text = 'Retrying ORB-1202 jobs, naïvely: Ærø café Straße ΣΙΣΥΦΟΣ Привет мир مرحبا 🤖';
    expect(ingest.tokens(text)).toEqual(fts5.tokens(text));
    expect(query.tokens(text)).toEqual(fts5.tokens(text));
    expect(ingest.count(text)).toBe(fts5.count(text));
    expect(fts5.tokens('ΣΊΣΥΦΟΣ σίσυφος ёлка йогурт أحمد')).toEqual(['σίσυφοσ', 'σίσυφοσ', 'ёлка', 'йогурт', 'أحمد']);
    expect(query.tokens('ΣΊΣΥΦΟΣ σίσυφος ёлка йогурт أحمد')).toEqual(['σισυφοσ', 'σισυφοσ', 'елка', 'иогурт', 'احمد']);
  });

  it('reads Korean as bigrams (its particles are written onto its words), characters too at ingest', () => {
    expect(fts5.tokens('수도는 서울')).toEqual(['수도는', '서울']);
    expect(query.tokens('수도는 서울')).toEqual(['수도', '도는', '서울']);
    expect(ingest.tokens('수도는 서울')).toEqual(['수도', '수', '도는', '도', '는', '서울', '서', '울']);
  });

  it('keeps a word whole across its combining marks: Indic vowel signs and viramas stay, Arabic harakat, Hebrew points and the nukta are dropped', () => {
    expect(fts5.tokens('लाल किला बनवाया')).toEqual(['ल', 'ल', 'क', 'ल', 'बनव', 'य']);
    expect(query.tokens('लाल किला बनवाया')).toEqual(['लाल', 'किला', 'बनवाया']);
    expect(ingest.tokens('सम्राट')).toEqual(['सम्राट']);
    // Spelled either way: with or without the nukta, with a chandrabindu or an anusvara.
    expect(query.tokens('क़ुतुब कुतुब शाहजहाँ शाहजहां')).toEqual(['कुतुब', 'कुतुब', 'शाहजहां', 'शाहजहां']);
    expect(query.tokens('বাংলা ভাষা தமிழ் మొదటి')).toEqual(['বাংলা', 'ভাষা', 'தமிழ்', 'మొదటి']);
    expect(query.tokens('كَتَبَ الكتاب')).toEqual(['كتب', 'الكتاب']);
    expect(query.tokens('שָׁלוֹם')).toEqual(['שלום']);
    // A mark never starts a token, and the Latin diacritics still fold as FTS5 folds them.
    expect(query.tokens('\u093f x e\u0301cole')).toEqual(['x', 'ecol']);
    expect(query.count('लाल किला')).toBe(2);
  });

  it('refuses an unknown spaceless mode, naming the value', () => {
    expect(() => createFts5Tokenizer({ porter: true, spaceless: 'bigrams' as 'query' })).toThrow(
      `Atlas: createFts5Tokenizer options.spaceless must be 'ingest', 'query' or unset, got "bigrams".`,
    );
  });
});
