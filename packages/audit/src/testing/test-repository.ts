/** The repository identity tests put in genesis events. */
export const testRepository = {
  root_commits: ['4b825dc642cb6eb9a060e54bf8d69288fbee4904'],
  path: '/work/app',
};
