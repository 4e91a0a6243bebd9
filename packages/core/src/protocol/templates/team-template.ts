/**
 * The `team` template: three modes a team routes work through (plan, produce, review follow-ups), each
 * with its own gates, a protocol-fit check that hands misrouted tasks to a human, and documented roles.
 */
export const teamTemplate = `# .snodo/protocol.yml: the rules snodo applies to every task in this repository.
#
# Written by \`snodo init --template team\`: three kinds of work, each with its own gates.
# When a task does not name a mode (\`snodo run --mode <id>\`), snodo asks the judging model which
# mode's description fits it best. Each run then goes through: pre-execute gates on the task text,
# the coder in its own git worktree, post-execute gates on the real diff, and a merge when every
# gate passes. Every decision lands in .snodo/audit.log.
# Commit this file; check it after editing with \`snodo protocol validate\`.

protocol_id: team
name: Team
version: "1.0.0"

# The mode a task runs in when it names none and classification is not possible.
initial_mode: producer

# Who does what. Documentation for people; snodo only checks that role ids are unique.
roles:
  - role_id: lead
    name: Tech lead
    permissions: [approve-escalations, edit-protocol]
    responsibilities:
      - Decides escalated jobs with \`snodo task approve\` or \`snodo task reject\`.
      - Owns this file.
  - role_id: developer
    name: Developer
    permissions: [run-tasks]
    responsibilities:
      - Writes tasks that state an outcome and how to check it.

modes:
  - mode_id: planner
    name: Planner
    description: Turning a rough intent into a written plan or design note. No production code.
    instructions: |
      Write the plan as Markdown under docs/plans/. State the goal, the steps as small
      testable increments, the risks, and how each step will be checked. Do not change code.
    # Logical tools: labels for the duties of a mode. Two modes never share one.
    tools: [assess, plan]
    validators: [intent-clarity, protocol-fit, plan-review]
    scope: ["docs/**"]
    constraints:
      - constraint_id: plans-only-in-docs
        description: Planning work changes documentation only.
        predicate: files_in_scope
        params:
          scope_paths: ["docs/**"]
    # Declarative hand-offs: snodo never switches modes by itself; the judges read them as context.
    transitions:
      planned: producer

  - mode_id: producer
    name: Producer
    description: Features, fixes and refactors of the code, with their tests.
    instructions: |
      Make the smallest change that completely does the task. Follow the conventions of the code
      around it, and add or update tests for the behaviour you change. Never edit files under .snodo/.
    # A mode with \`dispatch\` must run at least one pre_execute gate.
    tools: [edit, dispatch, test, validate, commit]
    validators: [intent-clarity, protocol-fit, security, architecture, tests]
    transitions:
      complete: reviewer

  - mode_id: reviewer
    name: Reviewer
    description: Follow-ups from code review on existing work - naming, comments, small behaviour-preserving corrections and missing tests.
    instructions: |
      Address the review comments in the task and nothing else. Keep behaviour unchanged unless the
      task says otherwise.
    tools: [review, approve, merge, pr]
    validators: [protocol-fit, conventions, security, tests]
    transitions:
      approved: complete
      rejected: producer

validators:
  # --- before the coder (on the task text) ---
  - validator_id: intent-clarity
    validator_type: planning
    evaluation_phase: pre_execute
    criteria:
      - The task states an outcome and how to check that it was reached.
      - The task is bounded; one coder run can finish it.
      - The task does not ask to weaken security, disable checks or tests, or edit snodo's own files.

  # Does the task belong to the mode it was routed to? Capped at warn: a misrouted task goes to a
  # person for a decision instead of being blocked.
  - validator_id: protocol-fit
    validator_type: protocol
    evaluation_phase: pre_execute
    severity_cap: warn
    criteria:
      - The work described falls within this mode's description and duties; name the mode it belongs to if not.

  # --- after the coder (on the diff) ---
  # LLM judges use the judging model (\`-m\`, or \`model\` in $SNODO_HOME/config.yml).
  - validator_id: plan-review
    validator_type: planning
    evaluation_phase: post_execute
    criteria:
      - The plan states the goal, small testable steps, the risks, and how each step is checked.

  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - No credentials, tokens or private keys are added to the code or its configuration.
      - Input that crosses a trust boundary is validated; no injection risk is introduced.
      - Authentication and authorization checks are not weakened or bypassed.

  - validator_id: architecture
    validator_type: architecture
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - The change fits the existing structure of the code instead of working around it.
      - Responsibilities stay separated; no needless coupling or duplication is introduced.

  - validator_id: conventions
    validator_type: conventions
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - Names, file layout and style match the code around the change.
      - The change does what the review asked and nothing else.

  # Your own tests (exit 0 passes). Without test_command the command is detected from
  # package.json, pyproject.toml / setup.cfg, Cargo.toml, a Makefile or go.mod.
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling: {}
    # tooling:
    #   test_command: npm test
    #   timeout: 600

# unanimous: every gate of a phase must pass. A warn withholds approval and escalates the job to a
# person; a blocker always halts.
disagreement_policy: unanimous

global_constraints:
  - constraint_id: no-secrets
    description: No credentials or private keys in the added lines of the diff.
    predicate: no_secrets_in_diff
    severity: blocker

execution:
  merge_strategy: merge          # merge | ff-only | squash | none (keep the branch for a PR)
  max_fix_attempts: 2
  fix_failing_tests: false
  coder_timeout_seconds: 1800
  gate_concurrency: 4
`;
