/** Where snodo's choices came from, in words: shared by `snodo run --dry-run`, the summary and `snodo meta`. */

const MODE_SOURCES: Readonly<Record<string, string>> = {
  flag: '--mode',
  'single-mode': 'the only mode that can execute',
  'initial-mode': 'initial_mode',
  classifier: 'the classifier picks at run time; initial_mode shown',
  'classifier-fallback': 'no classifier model; initial_mode',
};

const CODER_SOURCES: Readonly<Record<string, string>> = {
  'mock-flag': '--mock',
  'coder-flag': '--coder',
  'protocol-mode': "the mode's coder in the protocol",
  'model-prefix': 'the model namespace',
  'model-name': 'the model name',
  default: 'the default coder',
};

const BASE_SOURCES: Readonly<Record<string, string>> = {
  flag: '--base',
  protocol: 'execution.base_branch in the protocol',
  checkout: 'the checked-out branch',
};

/** A mode source (`single-mode`) in words. */
export function describeModeSource(source: string): string {
  return MODE_SOURCES[source] ?? source;
}

/** A coder source (`mock-flag`) in words. */
export function describeCoderSource(source: string): string {
  return CODER_SOURCES[source] ?? source;
}

/** A base-branch source (`checkout`) in words. */
export function describeBaseSource(source: string): string {
  return BASE_SOURCES[source] ?? source;
}

/** A model source in words: `-m`, `--mock`, `config llm.validator.model`… */
export function describeModelSource(source: string): string {
  if (source === 'flag') return '-m';
  if (source === 'flag-namespaced') return '-m, namespaced for this coder';
  if (source === 'mock-default') return '--mock';
  if (source === 'cli-default') return "the coder's own default";
  if (source === 'unset') return 'not set';
  if (source.startsWith('config:')) return `config ${source.slice('config:'.length)}`;
  if (source.startsWith('protocol:')) return `protocol ${source.slice('protocol:'.length)}`;
  return source;
}

/** A role's model for display: the model, `none` when nothing sets one, or the coder's own default. */
export function describeModel(model: string | null | undefined, source: string): string {
  if (model !== null && model !== undefined) return model;
  return source === 'unset' ? 'none' : "(coder's default)";
}
