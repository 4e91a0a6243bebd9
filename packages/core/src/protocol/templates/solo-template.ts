/**
 * The `solo` template, written by `snodo init` by default: one developer, one mode, judges before and
 * after the coder, the project's own tests, and a secret scan. Runs fully offline under `--mock` (every
 * judge uses the judging model, which `--mock` makes `mock/pass`).
 */
export const soloTemplate = `# .snodo/protocol.yml: the rules snodo applies to every task in this repository.
#
# Written by \`snodo init\` from the "solo" template: one developer, one kind of work.
# Each \`snodo run "<task>"\` goes through these steps:
#   1. pre-execute gates judge the task text before any code is written;
#   2. a coder changes the code in its own git worktree, on a task branch;
#   3. post-execute gates judge the real diff: constraints, your tests, LLM judges;
#      recoverable findings send the coder back to fix them (execution.max_fix_attempts);
#   4. when every gate passes, the task branch is merged into your base branch.
# Every decision lands in .snodo/audit.log. Commit this file: snodo always reads it from the main
# checkout, so a coder cannot change its own rules. Check it after editing with
# \`snodo protocol validate\`.

protocol_id: solo
name: Solo developer
version: "1.0.0"

# The mode a task runs in unless \`snodo run --mode <id>\` names another.
initial_mode: producer

modes:
  - mode_id: producer
    name: Producer
    description: Any change to this repository - features, fixes, refactors, tests and docs.
    # Handed to the coder with every task. Put your house rules here.
    instructions: |
      Make the smallest change that completely does the task.
      Follow the conventions of the code around the change.
      Add or update tests for the behaviour you change.
      Never edit files under .snodo/.
    # Logical tools: labels for the duties of this mode. Two modes may never share one
    # (separation of duties), and a mode with \`dispatch\` must run a pre_execute gate.
    tools: [edit, dispatch, test, validate, commit, merge]
    # The gates this mode runs, by validator_id. Each one runs in its own phase.
    validators: [task-review, security, architecture, tests]
    # coder: <id>          # pin a coder for this mode; \`snodo coders\` lists the ids
    # scope: ["src/**"]    # globs the coder is told to stay within

validators:
  # Before the coder: is the task clear and safe enough to hand over?
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria:
      - The task states an outcome that a reviewer could check once the work is done.
      - The task does not ask to weaken security, disable checks or tests, or edit snodo's own files.

  # After the coder: LLM judges read the diff. They use the judging model: \`-m <provider/model>\`,
  # or \`model\` in $SNODO_HOME/config.yml; \`--mock\` makes it mock/pass. Set \`model:\` on a
  # validator to give that judge its own model.
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - No credentials, tokens or private keys are added to the code or its configuration.
      - Input that crosses a trust boundary is validated, and output is encoded where it is rendered.
      - No injection risk is introduced (shell, SQL, path traversal, template or code evaluation).

  - validator_id: architecture
    validator_type: architecture
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - The change fits the existing structure of the code instead of working around it.
      - New code has one clear responsibility per module and no needless coupling.
      - The change does only what the task asks; unrelated edits are a finding.

  # Your own tests. Exit code 0 passes; anything else is a blocker with the output as evidence.
  # Without test_command, snodo picks the command from package.json, pyproject.toml / setup.cfg,
  # Cargo.toml, a Makefile or go.mod.
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling: {}
    # tooling:
    #   test_command: npm test          # a string runs through \`sh -c\`
    #   test_command: [pytest, -q]      # a list runs directly
    #   timeout: 600                    # seconds

# How the verdicts of one phase combine. unanimous: every gate must pass. A warn withholds approval
# and hands the job to you (\`snodo task approve <job>\` or \`snodo task reject <job>\`); a blocker
# always halts and cannot be approved away.
disagreement_policy: unanimous

# Deterministic checks on the lines the coder adds, in every mode.
global_constraints:
  - constraint_id: no-secrets
    description: No credentials or private keys in the added lines of the diff.
    predicate: no_secrets_in_diff
    severity: blocker

execution:
  merge_strategy: merge          # merge | ff-only | squash | none (keep the branch, e.g. for a PR)
  max_fix_attempts: 2            # extra coder runs to fix recoverable post-execute findings
  fix_failing_tests: false       # true: failing tests send the coder back to fix them
  coder_timeout_seconds: 1800    # wall-clock limit of one coder run
  gate_concurrency: 4            # gates of one phase that may run at the same time
  warm_judge_cache: true         # one judge writes the judges' shared prompt cache (≥ ~1,024 tokens), then the rest read it
  sandbox: auto                  # auto | required | off: the coder and command gates in a sandbox (bubblewrap)
  sandbox_network: true          # false: command gates run without network
  # base_branch: main            # default: the branch checked out when you run snodo
  # max_cost_usd: 5.00           # budget: stop the coder and ask once the job spent this (all roles)
  # max_tokens: 2000000          # the same in tokens; --max-cost / --max-tokens override either
`;
