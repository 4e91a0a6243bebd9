import { version } from '../package.json';
/** snodo's version, recorded in the audit log's genesis event and in `snodo --version`. */
export const SNODO_VERSION: string = version;
