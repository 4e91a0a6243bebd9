import { repositoryLayout } from './repository-layout.js';

/** The hash function a repository names its objects with. */
export type ObjectFormat = 'sha1' | 'sha256';

/**
 * The object format of the repository containing `cwd` (`git rev-parse --show-object-format`). A task
 * workspace that borrows the repository's objects must be created with the same one, or git cannot read
 * a single object through the alternate.
 */
export async function objectFormat(cwd: string): Promise<ObjectFormat> {
  return (await repositoryLayout(cwd)).objectFormat;
}
