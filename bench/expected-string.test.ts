import { describe, expect, it } from 'vitest';
import { answerOutcome } from './expected-string.ts';

describe('answerOutcome', () => {
  const answered = (text: string, quote = text) => ({ text, abstained: false, citations: [{ quote }] });
  const closest = (sentences: string[]) => ({ text: '', abstained: true, citations: [], closest: [{ sentences }] });

  it('is right when the text or a quote holds the string, white space read as one space, and wrong otherwise', () => {
    expect([
      answerOutcome(answered('Run `su\n  -c` as root. [1]'), 'su -c'),
      answerOutcome(answered('See [1].', 'It is `/etc/nologin`.'), '/etc/nologin'),
      answerOutcome(answered('Use `lsof`. [1]'), 'fuser'),
    ]).toEqual(['right', 'right', 'wrong']);
  });

  it('is closest useful when an abstention shows the string among its closest passages, abstained when not', () => {
    expect([answerOutcome(closest(['Try `fuser -v`.']), 'fuser'), answerOutcome(closest(['Try lsof.']), 'fuser'), answerOutcome({ text: '', abstained: true, citations: [] }, 'fuser')]).toEqual([
      'closest useful',
      'abstained',
      'abstained',
    ]);
  });

  it('is abstained for a question the docs do not answer when the run abstained, wrong when it answered', () => {
    expect([answerOutcome(closest(['Nginx is not covered.']), undefined), answerOutcome(answered('Install nginx. [1]'), undefined)]).toEqual(['abstained', 'wrong']);
  });
});
