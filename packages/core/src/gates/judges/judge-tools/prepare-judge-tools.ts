import { DEFAULT_JUDGE_MAX_TURNS } from '@snodo/llm';
import type { GateValidatorSpec } from '../../gate-validator-spec.js';
import type { GateVerdictCause } from '../../gate-verdict.js';
import type { GateJudgeTool } from '../gate-judge-function.js';
import { buildJudgeTools } from './build-judge-tools.js';
import type { JudgeToolCall } from './judge-tool-call.js';
import { GRANTABLE_JUDGE_TOOLS, judgeToolsForGrant } from './judge-tool-grant.js';
import type { JudgeToolSource } from './judge-tool-source.js';

/** A judge's tool loop, ready to hand to the judging function; `calls` fills in as the model calls tools. */
export interface PreparedJudgeTools {
  readonly ok: true;
  readonly tools: readonly GateJudgeTool[];
  readonly maxTurns: number;
  readonly calls: JudgeToolCall[];
}

/** Why a judge with a grant cannot be given its tools: an error verdict, never a judge that silently looks less. */
export interface JudgeToolsRefused {
  readonly ok: false;
  readonly justification: string;
  readonly cause?: GateVerdictCause;
}

/**
 * The tools a validator's `tools:` grant gives its judge, reading `source`; `undefined` when the grant is
 * empty (the judge answers in one completion). A grant naming anything but the read-only tools, a
 * `max_turns` that is not a whole number ≥ 1, or no source to read are refused.
 */
export function prepareJudgeTools(
  spec: GateValidatorSpec,
  source: JudgeToolSource | undefined,
): PreparedJudgeTools | JudgeToolsRefused | undefined {
  const grant = spec.tools ?? [];
  if (grant.length === 0) return undefined;
  const id = spec.validator_id;
  const { tools, refused } = judgeToolsForGrant(grant);
  if (refused.length > 0) {
    const justification =
      `Validator ${id} could not run: its tools: grant names ${refused.map((name) => `\`${name}\``).join(', ')}, ` +
      `which ${refused.length === 1 ? 'is' : 'are'} not a read-only tool. Judges may only read ` +
      `(${GRANTABLE_JUDGE_TOOLS.join(', ')}); fix tools: in .snodo/protocol.yml.`;
    return {
      ok: false,
      justification,
      cause: { kind: 'configuration', code: 'PROTOCOL_INVALID', message: justification },
    };
  }
  const maxTurns = spec.max_turns ?? DEFAULT_JUDGE_MAX_TURNS;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    const justification =
      `Validator ${id} could not run: max_turns is ${JSON.stringify(maxTurns)}; set a whole number ≥ 1 ` +
      'in .snodo/protocol.yml.';
    return {
      ok: false,
      justification,
      cause: { kind: 'configuration', code: 'PROTOCOL_INVALID', message: justification },
    };
  }
  if (source === undefined) {
    return {
      ok: false,
      justification: `Validator ${id} could not run: it has tools, but the gate runner gave it no repository to read.`,
    };
  }
  const calls: JudgeToolCall[] = [];
  return { ok: true, tools: buildJudgeTools(tools, source, calls), maxTurns, calls };
}
