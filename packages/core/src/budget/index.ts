export { BudgetWatch } from './budget-watch.js';
export {
  type BudgetRequest,
  checkBudgetValue,
  hasBudget,
  type JobBudget,
  resolveJobBudget,
} from './job-budget.js';
export {
  type BudgetCrossing,
  crossedCap,
  describeCrossing,
  formatUsd,
  type JobSpend,
  jobSpend,
} from './job-spend.js';
