import { describe, expect, it } from 'vitest';
import { BIGRAM_SCRIPT, OTHER_SCRIPT, runWords, scriptAt, SEGMENTED_SCRIPT, splitSpaceless } from './scripts.ts';

describe('scripts', () => {
  it('classes Han, kana, Hangul, Thai and the rest', () => {
    expect(['中', 'か', 'カ', 'ー', '・', 'ก', 'a', '한', 'ㄱ', '。'].map((char) => scriptAt(char, 0))).toEqual([
      BIGRAM_SCRIPT, BIGRAM_SCRIPT, BIGRAM_SCRIPT, BIGRAM_SCRIPT, OTHER_SCRIPT, SEGMENTED_SCRIPT, OTHER_SCRIPT, BIGRAM_SCRIPT, BIGRAM_SCRIPT, OTHER_SCRIPT,
    ]);
  });

  it('reads a run as bigrams with their offsets, characters too with unigrams', () => {
    expect(runWords('北京大学', false)).toEqual([
      { word: '北京', offset: 0 },
      { word: '京大', offset: 1 },
      { word: '大学', offset: 2 },
    ]);
    expect(runWords('北京', true).map((word) => word.word)).toEqual(['北京', '北', '京']);
    expect(runWords('茶', true)).toEqual([{ word: '茶', offset: 0 }]);
    expect(runWords('ລາວພາສາ', false).map((word) => word.word)).toEqual(['ລາວ', 'ພາສາ']);
  });

  it('splits a text into its runs and the text between them, with offsets', () => {
    const parts: string[] = [];
    splitSpaceless('设置max_payload_kb为10', (text, at) => parts.push(`other ${text} ${at}`), (run, at) => parts.push(`run ${run} ${at}`));
    expect(parts).toEqual(['run 设置 0', 'other max_payload_kb 2', 'run 为 16', 'other 10 17']);
  });
});
