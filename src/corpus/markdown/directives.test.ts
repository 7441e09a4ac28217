import { describe, expect, it } from 'vitest';
import { readDirective, withDirectivesRead } from './directives.ts';

describe('readDirective', () => {
  it.each([
    ['a VitePress callout', '::: warning', { role: 'open', fence: ':::', kind: 'callout', label: 'Warning:' }],
    ['a Docusaurus callout', ':::tip', { role: 'open', fence: ':::', kind: 'callout', label: 'Tip:' }],
    ['a titled callout', '::: danger BEWARE', { role: 'open', fence: ':::', kind: 'callout', label: 'BEWARE:' }],
    ['a Docusaurus 3 title', ':::note[Before you start]', { role: 'open', fence: ':::', kind: 'callout', label: 'Before you start:' }],
    ['a title that ends a sentence', ":::warning Do not create a 'tasks' folder at the root!", { role: 'open', fence: ':::', kind: 'callout', label: "Do not create a 'tasks' folder at the root!" }],
    ['a title with a component', '::: warning WARNING <Version>3.2.0</Version>', { role: 'open', fence: ':::', kind: 'callout', label: 'WARNING 3.2.0:' }],
    ['a details box with attributes', '::: details Click me {open}', { role: 'open', fence: ':::', kind: 'callout', label: 'Click me:' }],
    ['a Pandoc fenced div', '::: {.note}', { role: 'open', fence: ':::', kind: 'callout', label: 'Note:' }],
    ['a code group', '::: code-group', { role: 'open', fence: ':::', kind: 'code-group' }],
    ['tabs with a sync key', '::: tabs key:provider', { role: 'open', fence: ':::', kind: 'tabs' }],
    ['another container', '::: v-pre', { role: 'open', fence: ':::', kind: 'other' }],
    ['a closing fence', '::::', { role: 'close', fence: '::::' }],
    ['a GitBook hint', '{% hint style="info" %}', { role: 'open', fence: '{% hint %}', kind: 'callout' }],
    ['the end of a hint', '{%- endhint -%}', { role: 'close', fence: '{% hint %}' }],
    ['a tab', '{% tab title="npm" %}', { role: 'tag', label: 'npm:' }],
    ['a code title', "{% code title='worker.js' lineNumbers=\"true\" %}", { role: 'tag', label: 'worker.js:' }],
    ['tags on one line', '{% endtab %}{% endtabs %}', { role: 'tag' }],
    ['an embed', '{% embed url="https://example.com/video" %}', { role: 'tag' }],
  ])('reads %s', (_name, line, directive) => {
    expect(readDirective(line)).toEqual(directive);
  });

  it('reads a tab title only inside a tabs container', () => {
    expect(readDirective('== Playwright', true)).toEqual({ role: 'tag', label: 'Playwright:' });
    expect(readDirective('=== GitHub Actions (CI)', true)).toEqual({ role: 'tag', label: 'GitHub Actions (CI):' });
    expect(readDirective('== Playwright')).toBeUndefined();
  });

  it.each([
    ['text that mentions a fence', 'Use ::: to open a container.'],
    ['colons that are not a fence', '::: 3 colons'],
    ['a tag with text after it', '{% raw %}Text'],
    ['a tag never closed', '{% hint style="info"'],
    ['prose', 'Install it.'],
  ])('leaves %s as text', (_name, line) => {
    expect(readDirective(line)).toBeUndefined();
  });
});

describe('withDirectivesRead', () => {
  it('reads the directive lines an HTML block swallowed: labels kept, the rest left out', () => {
    expect(withDirectivesRead('Vitest UI, details at the bottom\n== right\nVitest UI, details at the right\n:::', true)).toBe(
      'Vitest UI, details at the bottom\nright:\nVitest UI, details at the right',
    );
    expect(withDirectivesRead('== right\nText', false)).toBe('== right\nText');
  });
});
