export { type ForeignBaseCommit, findForeignBaseCommits } from './foreign-base-commits.js';
export {
  appendLandingLedger,
  type LandingJournal,
  type LandingLedgerEntry,
  type LandingMove,
  landingLedgerOffset,
  landingsDirectory,
  readLandingJournals,
  readLandingLedger,
} from './landing-journal.js';
export { type RecoveredLanding, recoverInterruptedLandings } from './recover-interrupted-landings.js';
