import { describe, expect, it } from 'vitest';
import { functionWordsOf, languageOf } from './function-words.ts';
import { contentWords } from './text.ts';
import { queryTerms } from '../index/engine/query.ts';
import { DEFAULT_TOKENIZER } from '../index/analysis/tokenize.ts';

describe('functionWordsOf', () => {
  it('reads a question by the language its function words are written in', () => {
    expect(languageOf('Quelle commande affiche la liste des modules du noyau actuellement chargés ?')).toBe('fra');
    expect(languageOf('Wie kann ich Kernel-Parameter im laufenden Betrieb ändern?')).toBe('deu');
    expect(languageOf('¿Cómo evito que un módulo del núcleo se cargue automáticamente?')).toBe('spa');
    // Galician's list holds as many of these words, Spanish's is the shorter.
    expect(languageOf('¿En qué directorio guarda APT los paquetes que descarga?')).toBe('spa');
  });

  it('reads English, names, identifiers and too short a text as no other language', () => {
    expect(languageOf('How do I set the timeout?')).toBeUndefined();
    // "per" is Catalan's "for", inside an identifier it is no one's word.
    expect(languageOf('Which release added ORBIT_MAX_TASKS_PER_CHILD?')).toBeUndefined();
    // Danish writes "for" and "store" (big): "for" is English too.
    expect(languageOf('Blob store for large results')).toBeUndefined();
    // Italian's "ho" and "chi" in a name.
    expect(languageOf('When was the Ho Chi Minh Highway built?')).toBeUndefined();
    expect(languageOf('Ho Chi Minh Highway')).toBeUndefined();
    expect(languageOf('die Hard')).toBeUndefined();
    expect(functionWordsOf('How do I set the timeout?').size).toBe(0);
  });

  it('keeps a word written with diacritics that folds into a function word ("ändern" is no "andern")', () => {
    expect(functionWordsOf('Wie kann ich Kernel-Parameter im laufenden Betrieb ändern?').has('andern')).toBe(false);
    expect(functionWordsOf('Welche anderen Pakete gibt es und wie finde ich die andern?').has('andern')).toBe(true);
  });
});

describe('content words and query terms of a question in another language', () => {
  it('leaves its function words out, as English leaves "the" and "how"', () => {
    expect(contentWords('Quelle commande affiche la liste des modules du noyau actuellement chargés ?')).toEqual([
      'commande', 'affiche', 'liste', 'modules', 'noyau', 'actuellement', 'charges',
    ]);
    expect(contentWords('Wie kann ich Kernel-Parameter im laufenden Betrieb ändern?')).toEqual(['kernel', 'parameter', 'laufenden', 'betrieb', 'andern']);
    expect(contentWords('¿En qué directorio guarda APT los paquetes que descarga?')).toEqual(['directorio', 'guarda', 'apt', 'paquetes', 'descarga']);
    expect(queryTerms('Comment changer le mot de passe d’un compte ?', DEFAULT_TOKENIZER)).toEqual(['changer', 'mot', 'passe', 'compte']);
  });

  it('reads an English question as before', () => {
    expect(contentWords('Which release added ORBIT_MAX_TASKS_PER_CHILD?')).toEqual(['release', 'added', 'orbit', 'max', 'tasks', 'child']);
    expect(queryTerms('Which release added ORBIT_MAX_TASKS_PER_CHILD?', DEFAULT_TOKENIZER)).toEqual([
      'release', 'added', 'orbit', 'max', 'tasks', 'per', 'child', 'orbitmaxtasksperchild',
    ]);
  });
});
