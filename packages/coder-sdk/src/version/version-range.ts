/**
 * The CLI versions an adapter was verified against. `min` is inclusive, `below` exclusive, both optional:
 * `{ min: '2.0.0', below: '3.0.0' }` reads ">= 2.0.0 and < 3.0.0". Each coder package keeps the evidence in
 * its `COMPAT.md`.
 */
export interface SupportedVersionRange {
  /** The oldest verified version (inclusive). */
  readonly min?: string;
  /** The first version not verified (exclusive), usually the next major. */
  readonly below?: string;
}

interface ParsedVersion {
  readonly numbers: readonly number[];
  readonly prerelease: readonly string[];
}

/** Finds the first `1.2.3`-like version in a CLI's `--version` output (`claude 2.1.3 (Claude Code)`). */
export function findVersionInText(text: string): string | undefined {
  const match = /\bv?(\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]+)?)/.exec(text);
  return match?.[1];
}

function parseVersion(version: string): ParsedVersion {
  const trimmed = version.trim().replace(/^v/, '').split('+')[0] ?? '';
  const dash = trimmed.indexOf('-');
  const core = dash === -1 ? trimmed : trimmed.slice(0, dash);
  const prerelease = dash === -1 ? [] : trimmed.slice(dash + 1).split('.');
  const numbers = core.split('.').map((part) => {
    const value = Number.parseInt(part, 10);
    return Number.isNaN(value) ? 0 : value;
  });
  return { numbers, prerelease };
}

function compareIdentifiers(left: string, right: string): number {
  const leftNumber = /^\d+$/.test(left) ? Number(left) : undefined;
  const rightNumber = /^\d+$/.test(right) ? Number(right) : undefined;
  if (leftNumber !== undefined && rightNumber !== undefined) return Math.sign(leftNumber - rightNumber);
  // Semver: numeric identifiers sort before alphanumeric ones.
  if (leftNumber !== undefined) return -1;
  if (rightNumber !== undefined) return 1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Compares two dotted versions the way semver orders them: numerically part by part (a missing part counts
 * as 0, so `2.1` equals `2.1.0`), and a pre-release (`2.0.0-beta.1`) before its release. Build metadata
 * (`+abc`) is ignored. Returns a negative number, 0 or a positive number.
 */
export function compareVersions(left: string, right: string): number {
  const a = parseVersion(left);
  const b = parseVersion(right);
  const length = Math.max(a.numbers.length, b.numbers.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (a.numbers[index] ?? 0) - (b.numbers[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return b.prerelease.length - a.prerelease.length === 0 ? 0 : a.prerelease.length === 0 ? 1 : -1;
  }
  const identifiers = Math.max(a.prerelease.length, b.prerelease.length);
  for (let index = 0; index < identifiers; index += 1) {
    const leftIdentifier = a.prerelease[index];
    const rightIdentifier = b.prerelease[index];
    if (leftIdentifier === undefined) return -1;
    if (rightIdentifier === undefined) return 1;
    const difference = compareIdentifiers(leftIdentifier, rightIdentifier);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * `true` when `version` is inside `range` (`min` inclusive, `below` exclusive). Pre-releases of the `below`
 * version are outside too: `below: '3.0.0'` means the 3 line is unverified, and `3.0.0-rc.1` belongs to it
 * even though semver orders it before `3.0.0`.
 */
export function isVersionInRange(version: string, range: SupportedVersionRange): boolean {
  if (range.min !== undefined && compareVersions(version, range.min) < 0) return false;
  if (range.below !== undefined) {
    const below = parseVersion(range.below);
    const candidate = below.prerelease.length === 0 ? (version.split('-')[0] ?? version) : version;
    if (compareVersions(candidate, range.below) >= 0) return false;
  }
  return true;
}

/** The range in words for messages: `>= 2.0.0 and < 3.0.0`, `any version` when open on both ends. */
export function describeVersionRange(range: SupportedVersionRange): string {
  const parts: string[] = [];
  if (range.min !== undefined) parts.push(`>= ${range.min}`);
  if (range.below !== undefined) parts.push(`< ${range.below}`);
  return parts.length === 0 ? 'any version' : parts.join(' and ');
}
