/**
 * The `2+n` template: the reference shape of the 2+N pattern (two people in control, N agents), with a
 * producer/reviewer split, OWASP- and SOLID-flavoured judges, a spec-shape check and strict constraints.
 */
export const twoPlusNTemplate = `# .snodo/protocol.yml: the rules snodo applies to every task in this repository.
#
# Written by \`snodo init --template 2+n\`: the 2+N pattern, two people in control and N agents.
# The producer and reviewer modes have disjoint duties (separation of duties: the mode that writes
# code cannot approve or merge it). Each run: pre-execute gates on the task text, the coder in its
# own git worktree, post-execute gates on the real diff, then a merge when every gate passes.
# Commit this file; check it after editing with \`snodo protocol validate\`.

protocol_id: 2+n
name: 2+N reference protocol
version: "1.0.0"

initial_mode: producer

# The "2": people who own the outcome. The "N": the agents snodo runs. Documentation only.
roles:
  - role_id: product-owner
    name: Product owner
    permissions: [write-intent, accept-outcome]
    responsibilities: [States the intent and its acceptance criteria.]
  - role_id: tech-lead
    name: Technical lead
    permissions: [approve-escalations, edit-protocol]
    responsibilities: [Decides escalated jobs., Owns this protocol.]
  - role_id: agents
    name: Coding and judging agents
    permissions: [edit-in-worktree]
    responsibilities: [Produce and judge changes under this protocol.]

modes:
  - mode_id: producer
    name: Producer
    description: Writing and changing code and its tests.
    instructions: |
      Implement the task within the scope below. Keep the change minimal, follow the conventions
      of the surrounding code, and add a test for every source file you change.
    tools: [edit, dispatch, resolve, test, validate]
    validators: [task-spec, protocol-fit, security, architecture, conventions, tests]
    transitions:
      complete: reviewer

  - mode_id: reviewer
    name: Reviewer
    description: Acting on review findings for work already produced - corrections, not new features.
    tools: [review, approve, merge, pr]
    validators: [protocol-fit, security, architecture, tests]
    transitions:
      approved: complete
      rejected: producer

validators:
  # --- before the coder ---
  # The task must say WHAT and WITHIN WHICH LIMITS, and leave HOW to the coder.
  - validator_id: task-spec
    validator_type: planning
    evaluation_phase: pre_execute
    criteria:
      - The task states intent and constraints (behaviour, signatures, limits, acceptance criteria) and leaves implementation decisions to the coder.
      - A task that mostly transcribes the implementation (function bodies, statement-by-statement code) is a blocker; re-issue it as intent plus constraints.

  - validator_id: protocol-fit
    validator_type: protocol
    evaluation_phase: pre_execute
    severity_cap: warn           # a misrouted task goes to a person, it is not blocked
    criteria:
      - The work described belongs to this mode's duties; name the mode it belongs to if not.

  # --- after the coder: judges read the diff with the judging model ---
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    tools: [read_file, list_files, read_diff_between_refs]
    criteria:
      - Check the change against the OWASP Top 10 - injection, broken authentication or access control, sensitive data exposure, security misconfiguration, cross-site scripting, insecure deserialization, vulnerable components, missing logging.
      - No hard-coded credentials, tokens or keys.
      - Every user-facing input is validated and every output encoded.

  - validator_id: architecture
    validator_type: architecture
    evaluation_phase: post_execute
    tools: [read_file, list_files, read_diff_between_refs]
    criteria:
      - The change respects SOLID - single responsibility, open/closed, substitutability, small interfaces, dependencies on abstractions.
      - No circular dependencies, leaky module boundaries or tight coupling are introduced.

  - validator_id: conventions
    validator_type: conventions
    evaluation_phase: post_execute
    tools: [read_file, list_files]
    criteria:
      - Naming, file layout and module boundaries follow the project's conventions.
      - Public interfaces are documented and non-obvious logic is explained.

  # Your own tests (exit 0 passes); the command is detected from marker files unless set here.
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling: {}

disagreement_policy: unanimous

# Deterministic checks on the diff, in every mode. Each failure is a blocker.
global_constraints:
  # Widen or narrow the globs to your layout (\`**\` crosses directories).
  - constraint_id: files-in-scope
    description: Every changed file is inside the project's source, test or docs folders.
    predicate: files_in_scope
    params:
      scope_paths: ["src/**", "lib/**", "test/**", "tests/**", "docs/**"]
    severity: blocker
  - constraint_id: tests-exist
    description: Every changed source file has a corresponding test.
    predicate: tests_exist_for_modified
    severity: blocker
  - constraint_id: no-secrets
    description: No credentials or private keys in the added lines of the diff.
    predicate: no_secrets_in_diff
    severity: blocker

execution:
  merge_strategy: merge
  max_fix_attempts: 2
  fix_failing_tests: true        # failing tests send the coder back to fix them
  coder_timeout_seconds: 1800
  gate_concurrency: 4
`;
