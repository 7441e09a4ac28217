import type { Answer } from './trust/answer.ts';
import type { ReadStep, SearchStep } from './session/search-session.ts';
import type { StopReason } from './stop-conditions.ts';

/** Events a run emits while it works; the CLI, the server's stream and tracing consume them. */
export type RunEvent =
  | { type: 'run-start'; question: string }
  | { type: 'search-start'; query: string; version?: string; page?: number }
  | { type: 'search-end'; step: SearchStep }
  | { type: 'read'; read: ReadStep }
  | { type: 'answer'; answer: Answer }
  | { type: 'run-end'; stopReason: StopReason; latencyMs: number };

/** Receives run events. Must not throw; errors thrown here are ignored. */
export type RunEventHandler = (event: RunEvent) => void;
