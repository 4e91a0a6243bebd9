import type { CoderRegistry } from '../coders/index.js';
import type { ConfigStore, SnodoConfig } from '../config/index.js';
import type { Protocol, ProtocolIssue } from '../protocol/index.js';
import type { SandboxAvailability } from '../sandbox/detect-sandbox.js';
import type { SandboxSetting } from '../sandbox/sandbox-setting.js';

/** The repository snodo was started in: its main checkout, found even from a linked worktree. */
export interface ProjectRepository {
  /** The main checkout: where `.snodo/` lives. */
  readonly root: string;
  /** The repository's common git directory (`<root>/.git`). */
  readonly gitCommonDirectory: string;
}

/**
 * The protocol as `openProject` found it. `snodo doctor` and `snodo protocol validate` work with a missing
 * or invalid one (they report it); a run refuses it with `error`, the typed error that says what to fix.
 */
export type ProjectProtocol =
  | {
      readonly state: 'loaded';
      /** `<root>/.snodo/protocol.yml`. */
      readonly path: string;
      readonly protocol: Protocol;
      readonly warnings: readonly ProtocolIssue[];
      /** Whether the file sets `execution.merge_strategy` itself (the plan says `protocol`, not `default`). */
      readonly declaresMergeStrategy: boolean;
    }
  | {
      /** `missing` outside a repository too; `path` is then undefined. */
      readonly state: 'missing' | 'invalid';
      readonly path: string | undefined;
      /** `NOT_A_GIT_REPOSITORY`, `PROTOCOL_NOT_FOUND` or `PROTOCOL_INVALID`: what a run would throw. */
      readonly error: Error;
    };

/**
 * Everything snodo reads before it decides anything, loaded once (SPEC §2 step 1): config and its store,
 * the coder registry, the protocol, the repository, the sandbox and the secrets to mask. Every command
 * starts from one; `planTask` and `runTask` decide from it.
 */
export interface Project {
  /** The directory snodo was started in. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  /** `$SNODO_HOME`. */
  readonly snodoHome: string;
  /** Where task workspaces are created (`worktrees_dir`, else under `$SNODO_HOME`). */
  readonly worktreesDirectory: string;
  /** The config file's store: reading, setting and unsetting keys. */
  readonly configStore: ConfigStore;
  readonly config: SnodoConfig;
  readonly configWarnings: readonly ProtocolIssue[];
  /** Built-in coders (from the application) and those declared in config. */
  readonly registry: CoderRegistry;
  /** Who acts, for the audit log. */
  readonly actor: string;
  /** Undefined outside a git repository. */
  readonly repository: ProjectRepository | undefined;
  readonly protocol: ProjectProtocol;
  /** The sandbox settings that apply (protocol and config combined) and whether one works here. */
  readonly sandbox: { readonly setting: SandboxSetting; readonly availability: SandboxAvailability };
  /** Credential values snodo holds (config and environment keys, its signing key); never logged. */
  readonly knownSecrets: readonly string[];
}
