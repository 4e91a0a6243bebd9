/**
 * The fields of a protocol constraint that the gates read, with the protocol file's snake_case names; a
 * structural subset of the protocol schema's constraint type.
 */
export interface GateConstraintSpec {
  /** The constraint's id; becomes the verdict's `gateId`. */
  readonly constraint_id: string;
  /** What the constraint protects, shown when it fails. */
  readonly description?: string | null;
  /** A registered predicate name (`files_in_scope`…). Absent → documentation only, not evaluated. */
  readonly predicate?: string | null;
  /** Parameters handed to the predicate. */
  readonly params?: Readonly<Record<string, unknown>> | null;
  /** The severity of a failure: `blocker` (the default), `warn` or `pass`. */
  readonly severity?: string | null;
}
