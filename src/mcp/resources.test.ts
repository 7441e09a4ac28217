import { describe, expect, it } from 'vitest';
import { createTestDoc } from '../index/test-docs.ts';
import { documentMarkdown } from './resources.ts';

describe('documentMarkdown', () => {
  it('adds the headings a chunk\'s path does not share with the previous chunk, and none for a continued section', () => {
    const doc = createTestDoc({
      docId: 'tasks',
      title: 'Tasks',
      sections: [
        'Tasks run jobs.',
        { heading: 'helpers.job', parents: ['helpers'], text: 'The job being run.' },
        { heading: 'helpers.job', parents: ['helpers'], text: '| field | type |\n|---|---|\n| id | string |' },
        { heading: 'helpers.logger', parents: ['helpers'], text: 'A scoped logger.' },
        { heading: 'Errors', text: 'Throw to fail the job.' },
      ],
    });
    expect(documentMarkdown(doc.chunks)).toBe(
      [
        '# Tasks',
        'Tasks run jobs.',
        '## helpers',
        '### helpers.job',
        'The job being run.',
        '| field | type |\n|---|---|\n| id | string |',
        '### helpers.logger',
        'A scoped logger.',
        '## Errors',
        'Throw to fail the job.',
      ].join('\n\n') + '\n',
    );
  });

  it('starts with the title when the first chunk is already a section', () => {
    // A small lead-in merged into the first section: the chunk is named after the section.
    const [lead] = createTestDoc({ docId: 'config', title: 'Configuration', sections: ['A preset is an object.'] }).chunks;
    const chunk = { ...lead!, heading: 'Preset', headingPath: ['Configuration', 'Preset'] };
    expect(documentMarkdown([chunk])).toBe('# Configuration\n\n## Preset\n\nA preset is an object.\n');
  });
});
