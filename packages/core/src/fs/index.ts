export { writeFileAtomic } from './atomic-write.js';
