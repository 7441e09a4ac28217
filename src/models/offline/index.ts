export { createOfflineModel, type OfflineModelOptions } from './model.ts';
export { analyzeQuestion, detectVersion, needsSearch, type QuestionAnalysis } from '../../text/question.ts';
export { DEFAULT_PLANNER_OPTIONS, type PlannerOptions } from './planner.ts';
export { DEFAULT_ABSTAIN_OPTIONS, type AbstainOptions } from './extract-answer.ts';
