import { AtlasError } from '../../errors.ts';
import { classicAsk } from '../classic.ts';
import { analyzeQuestion } from '../../text/question.ts';
import { contentTerms } from '../../text/text.ts';
import type { RunEvent } from '../events.ts';
import { agenticRun, type AgenticRunOptions } from '../run.ts';
import { DEFAULT_RUN_DEADLINE_MS, type AgentRun } from '../run-types.ts';
import { DEFAULT_WEAK_SCORE } from '../session/search-session.ts';
import { withWebFallback } from '../web/web-fallback.ts';

import { ROUTES, type Route } from './route-names.ts';

export { ROUTES, type Route };

/** Passages of the classic pass of a routed run when none is given (the agent's mean chunks seen on the dev sets, see docs/policy.md). */
export const DEFAULT_ROUTE_CLASSIC_K = 15;

/** What an escalation check looks at: the question and the finished classic run. */
export interface RouteContext {
  question: string;
  classic: AgentRun;
  /** The weak-match threshold in force (the run's `weakScore`, else {@link DEFAULT_WEAK_SCORE}). */
  weakScore: number;
}

/** An escalation check: returns why the classic answer is not trusted, or undefined to keep it. */
export type RouteCheck = (context: RouteContext) => string | undefined;

/**
 * Escalates when the classic run abstained (or ended without an answer), naming its reason.
 *
 * @example
 * routedAsk(question, { model, index, route: 'auto', escalateWhen: [classicAbstained()] });
 */
export function classicAbstained(): RouteCheck {
  return ({ classic }) => (classic.answer.abstained ? `classic abstained (${classic.trace.abstainReason ?? 'no reason recorded'})` : undefined);
}

/** Escalates when the classic retrieval's best BM25 score is below the weak-match threshold, or nothing matched. */
export function weakRetrieval(): RouteCheck {
  return ({ classic, weakScore }) => {
    const best = classicRetrieval(classic)?.bestScore;
    if (best === undefined) return 'classic retrieval matched nothing';
    return best < weakScore ? `classic best score ${best.toFixed(2)} is below the weak threshold ${weakScore}` : undefined;
  };
}

/** Escalates when any citation of the classic answer failed verification. */
export function citationsFailed(): RouteCheck {
  return ({ classic }) => {
    const dropped = classic.trace.droppedCitations.length;
    if (dropped === 0) return undefined;
    return `${dropped} of ${dropped + classic.answer.citations.length} classic citations failed verification`;
  };
}

/**
 * Escalates when the question composes several facts (several parts, a relative clause that
 * bridges to another fact, "instead", "why", ...): one retrieval of the whole question may find
 * every passage it needs, but nothing checks that each hop was found, so the agent searches
 * each. Uses the same question analysis as the offline planner. Not a default check: on the dev
 * sets {@link uncoveredPart} escalates fewer questions and keeps the same answers.
 */
export function multiPartQuestion(): RouteCheck {
  return ({ question }) => {
    const analysis = analyzeQuestion(question);
    if (analysis.parts.length > 1) return `the question has ${analysis.parts.length} parts`;
    return analysis.compositional ? 'the question composes facts (a bridge to another fact)' : undefined;
  };
}

/**
 * Escalates a question that composes facts (see {@link multiPartQuestion}) when the classic
 * answer leaves one of its parts uncovered: fewer than `minShare` (default: all) of that part's
 * content terms (stemmed) appear in the answer text and its verified quotes. A part the answer
 * does not speak to is a hop the one pass may have missed.
 *
 * @example
 * uncoveredPart()({ question: 'Who directed X and where was he born?', classic, weakScore }); // 'the classic answer covers 50% of the terms of the part "where was he born"'
 */
export function uncoveredPart(minShare = 1): RouteCheck {
  return ({ question, classic }) => {
    const analysis = analyzeQuestion(question);
    if (analysis.parts.length < 2 && !analysis.compositional) return undefined;
    const said = new Set(contentTerms([classic.answer.text, ...classic.answer.citations.map((citation) => citation.quote)].join(' ')));
    for (const part of analysis.parts) {
      if (part.terms.length === 0) continue;
      const share = part.terms.filter((term) => said.has(term)).length / part.terms.length;
      if (share < minShare) return `the classic answer covers ${Math.round(share * 100)}% of the terms of the part "${part.text}"`;
    }
    return undefined;
  };
}

/** The checks of route `auto` when none are given, in the order they are reported. */
export function defaultRouteChecks(): RouteCheck[] {
  return [classicAbstained(), citationsFailed(), weakRetrieval(), uncoveredPart()];
}

export interface RoutedAskOptions extends AgenticRunOptions {
  /** Default `auto`. */
  route?: Route;
  /** Passages of the classic pass (default {@link DEFAULT_ROUTE_CLASSIC_K}). */
  classicK?: number;
  /** Checks that escalate route `auto` to the agent; the first that fires names the reason (default {@link defaultRouteChecks}). */
  escalateWhen?: RouteCheck[];
  /** With `web`: answer from the docs first (the route asked for) and add the web, on the agent, only when that abstains (`withWebFallback`). */
  webFallback?: boolean;
}

/** A run answered through {@link routedAsk}: `route` and `routeReason` are always set. */
export type RoutedRun = AgentRun & Required<Pick<AgentRun, 'route' | 'routeReason'>>;

/**
 * Answers through the route asked for. `classic` is one `classicAsk`; `agentic` is `agenticRun`;
 * `auto` runs classic first and escalates to the agent when a check fires (by default: classic
 * abstained, a citation failed, the best score is below the weak threshold, or the question
 * composes facts and the answer leaves a part's terms unsaid). An escalated run is the agent's
 * run with the classic run kept in `escalatedFrom`; its usage and latency include the classic
 * pass, and the agent gets what is left of the deadline. `onEvent` sees one run: one run-start,
 * the searches of both passes, and only the answer that is returned.
 *
 * @example
 * const run = await routedAsk('What is ORB-1202?', { model, index, route: 'auto' });
 * run.route; // 'classic'
 * run.routeReason; // 'classic passed every check (best score 15.38, 4 citations verified)'
 */
export async function routedAsk(question: string, options: RoutedAskOptions): Promise<RoutedRun> {
  const route = options.route ?? 'auto';
  if (!ROUTES.includes(route)) {
    throw new AtlasError('usage', `Atlas: route must be one of ${ROUTES.join(', ')}, got "${String(route)}". Pass e.g. route: 'auto'.`);
  }
  const classicK = options.classicK ?? DEFAULT_ROUTE_CLASSIC_K;
  if (!Number.isInteger(classicK) || classicK < 1) {
    throw new AtlasError('usage', `Atlas: classicK must be a positive whole number of passages, got ${String(classicK)}. Pass e.g. classicK: ${DEFAULT_ROUTE_CLASSIC_K}.`);
  }
  if (options.webFallback) {
    if (!options.web) throw new AtlasError('usage', 'Atlas: webFallback needs web (the allow-list and the provider tool): pass web: createWebSearch(model, { allowedDomains }), or --web <domains> with --web-fallback.');
    // The web run is the agent's: the classic arm makes one docs retrieval and has no web.
    return withWebFallback(question, { ...options, webFallback: false }, (asked, withOptions) => routedAsk(asked, withOptions.web ? { ...withOptions, route: 'agentic' } : withOptions));
  }
  if (options.web && route === 'classic') {
    throw new AtlasError('usage', 'Atlas: web search needs the agent, and route classic makes one docs retrieval without it. Use route agentic or auto (--route agentic), or drop --web.');
  }
  if (route === 'agentic') return { ...(await agenticRun(question, options)), route, routeReason: 'route agentic was asked for' };
  if (route === 'classic') return { ...(await classicAsk(question, { ...options, k: classicK })), route, routeReason: 'route classic was asked for' };

  // One run for event consumers: classic's answer and run-end wait for the decision, and an
  // escalated run does not start twice.
  const onEvent = options.onEvent;
  const held: RunEvent[] = [];
  // The classic pass works on a copy of the conversation's memory: kept, its passages are remembered; set aside, they are not.
  const classicMemory = options.memory?.clone();
  const classic = await classicAsk(question, {
    ...options,
    ...(classicMemory ? { memory: classicMemory } : {}),
    k: classicK,
    ...(onEvent ? { onEvent: (event: RunEvent) => (event.type === 'answer' || event.type === 'run-end' ? held.push(event) : onEvent(event)) } : {}),
  });
  const context: RouteContext = { question, classic, weakScore: options.weakScore ?? DEFAULT_WEAK_SCORE };
  const reason = firstReason(options.escalateWhen ?? defaultRouteChecks(), context);
  if (reason === undefined) {
    if (classicMemory) options.memory?.merge(classicMemory);
    for (const event of held) onEvent?.(event);
    return { ...classic, route: 'classic', routeReason: keptReason(classic) };
  }

  const deadlineMs = (options.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS) - classic.latencyMs;
  const agentic = await agenticRun(question, {
    ...options,
    deadlineMs,
    ...(onEvent ? { onEvent: (event: RunEvent) => (event.type === 'run-start' ? undefined : onEvent(event)) } : {}),
  });
  return {
    ...agentic,
    usage: {
      modelCalls: classic.usage.modelCalls + agentic.usage.modelCalls,
      inputTokens: classic.usage.inputTokens + agentic.usage.inputTokens,
      outputTokens: classic.usage.outputTokens + agentic.usage.outputTokens,
      costUsd: classic.usage.costUsd === null || agentic.usage.costUsd === null ? null : classic.usage.costUsd + agentic.usage.costUsd,
      ...(agentic.usage.webSearches === undefined ? {} : { webSearches: agentic.usage.webSearches }),
    },
    latencyMs: classic.latencyMs + agentic.latencyMs,
    route: 'agentic',
    routeReason: `escalated: ${reason}`,
    escalatedFrom: classic,
  };
}

function firstReason(checks: RouteCheck[], context: RouteContext): string | undefined {
  for (const check of checks) {
    const reason = check(context);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The classic pass's own retrieval: its last search (a policy's required searches come first). */
function classicRetrieval(classic: AgentRun): AgentRun['trace']['steps'][number] | undefined {
  return classic.trace.steps.at(-1);
}

function keptReason(classic: AgentRun): string {
  const best = classicRetrieval(classic)?.bestScore;
  const cited = classic.answer.citations.length;
  return `classic passed every check (best score ${best === undefined ? 'none' : best.toFixed(2)}, ${cited} citation${cited === 1 ? '' : 's'} verified)`;
}
