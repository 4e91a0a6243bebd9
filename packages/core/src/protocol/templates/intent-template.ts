/**
 * The `intent` template: the task is an intent, not a spec. A light check before the coder, and the
 * enforcement on the output: an outcome judge whose findings send the coder back, the project's tests,
 * and constraints.
 */
export const intentTemplate = `# .snodo/protocol.yml: the rules snodo applies to every task in this repository.
#
# Written by \`snodo init --template intent\`: tasks are intents ("users can reset their password"),
# not specifications. The check before the coder is light; the enforcement is on the output:
# a judge compares the real diff with the intent, and its findings send the coder back to fix them
# (up to execution.max_fix_attempts) before a person is asked.
# Commit this file; check it after editing with \`snodo protocol validate\`.

protocol_id: intent
name: Intent-driven
version: "1.0.0"

initial_mode: producer

modes:
  - mode_id: producer
    name: Producer
    description: Any change, described by the outcome it should have.
    instructions: |
      Treat the task as an intent. Decide the smallest change that achieves it, implement it,
      and add a test that shows the outcome. Never edit files under .snodo/.
    tools: [edit, test, validate, commit]
    validators: [intent-triage, outcome, tests]

validators:
  # Before the coder: only stops tasks no change could satisfy, or that ask for something unsafe.
  - validator_id: intent-triage
    validator_type: planning
    evaluation_phase: pre_execute
    criteria:
      - Pass whenever the task names an outcome that a reviewer could recognise; missing detail is not a finding.
      - A task asking to weaken security, disable checks or tests, or edit snodo's own files is a blocker.

  # After the coder: does the diff achieve the intent? Capped at warn, so a finding is recoverable:
  # the coder gets the findings and another attempt instead of the job halting.
  - validator_id: outcome
    validator_type: llm
    evaluation_phase: post_execute
    severity_cap: warn
    tools: [read_file, read_file_lines, list_files, read_diff_between_refs]
    criteria:
      - The change achieves the outcome the task states; name what is missing if it does not.
      - The change is minimal; unrelated edits, renames or reformatting are findings.
      - A test shows the new behaviour.

  # Your own tests (exit 0 passes); the command is detected from marker files unless set here.
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling: {}

disagreement_policy: unanimous

global_constraints:
  - constraint_id: no-secrets
    description: No credentials or private keys in the added lines of the diff.
    predicate: no_secrets_in_diff
    severity: blocker
  # "**" allows the whole repository; narrow it (e.g. ["src/**", "tests/**"]) to confine the coder.
  - constraint_id: files-in-scope
    description: Changed files stay inside the allowed paths.
    predicate: files_in_scope
    params:
      scope_paths: ["**"]
    severity: blocker

execution:
  merge_strategy: merge
  max_fix_attempts: 2
  fix_failing_tests: true
  coder_timeout_seconds: 1800
  gate_concurrency: 4
`;
