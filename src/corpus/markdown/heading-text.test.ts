import { describe, expect, it } from 'vitest';
import { headingPlainText } from './heading-text.ts';

describe('headingPlainText', () => {
  it.each([
    ['plain words, as they are', 'Install the worker', 'Install the worker'],
    ['code and emphasis markers removed', 'The `run()` **API** and _more_', 'The run() API and more'],
    ['HTML tags removed, their text kept', 'Options <a id="x"></a><small>(new)</small>', 'Options (new)'],
    ['entities and escapes decoded', 'Fast &amp; safe \\_x\\_', 'Fast & safe _x_'],
    ['a link by its text, an image by its alt text', '[Jobs](./jobs.md) ![logo](l.png)', 'Jobs logo'],
    ['strikethrough markers removed', '~~Old~~ New', 'Old New'],
    ['a setext heading of two lines keeps the break', 'First\nSecond', 'First\nSecond'],
  ])('%s', (_name, content, text) => {
    expect(headingPlainText(content)).toBe(text);
  });
});
