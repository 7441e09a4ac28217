// Types of what the tests import from render.js (the page's own script, plain JavaScript).

/** A quote's markdown as the page shows it: link targets and bold markers dropped, entities decoded. */
export function quoteText(markdown: string): string;
