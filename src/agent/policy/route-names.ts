// The names of the routes, apart from route.ts so that option checks (cli/options/option-values.ts) can
// name them without loading the loop and the AI SDK (`atlas search` never loads it).

/** How a question is answered: the one-pass classic arm, the agent, or classic first with escalation. */
export type Route = 'classic' | 'agentic' | 'auto';

/** The routes, as `--route` accepts them. */
export const ROUTES: readonly Route[] = ['classic', 'agentic', 'auto'];
