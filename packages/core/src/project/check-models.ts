import { requireRunContext } from '../pipeline/run-context.js';
import { chooseMode } from './choose-mode.js';
import { findMissingModels } from './find-missing-models.js';
import type { ModelRequiredError } from './model-required-error.js';
import type { Project } from './project.js';
import { resolveSelection, type SelectionRequest } from './resolve-selection.js';

/**
 * The models a run with `request` (by default a plain `snodo run "<task>"`) would need and nothing
 * configures, as the error the run is refused with, or `undefined` when it has them all. What `snodo
 * coders` and `snodo doctor` report as not ready, decided by the same code as `runTask`'s refusal.
 */
export function checkModels(
  project: Project,
  request: Omit<SelectionRequest, 'mode'> & { readonly mode?: string | undefined } = {},
): ModelRequiredError | undefined {
  const context = requireRunContext(project);
  const selectionRequest = {
    coder: request.coder,
    model: request.model,
    coderModel: request.coderModel,
    mock: request.mock,
  };
  const classifierModel = resolveSelection(context, selectionRequest).models.classifier.model;
  const choice = chooseMode(context.protocol, request.mode);
  const selection = resolveSelection(context, { ...selectionRequest, mode: choice.mode });
  return findMissingModels({ protocol: context.protocol, choice, selection, classifierModel });
}
