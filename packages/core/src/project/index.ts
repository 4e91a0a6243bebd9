export { chooseMode, executingModes, type ModeChoice } from './choose-mode.js';
export { resolveCoderTimeout, type Sourced } from './coder-timeout.js';
export { findMainCheckout, type OpenProjectOptions, openProject } from './open-project.js';
export { decideTask, planTask } from './plan-task.js';
export type { Project, ProjectProtocol, ProjectRepository } from './project.js';
export { resolveSelection, type Selection, type SelectionRequest } from './resolve-selection.js';
export type { TaskDecisions, TaskPlan, TaskRequest } from './task-plan.js';
