/**
 * @jest-environment node
 */
// The public API pinned by signatures: API Extractor's report of each entry point of package.json's `exports` and of
// the shell's federated `./auth` module, against the committed one (scripts/apiReports.cjs, which makes the reports
// of every published package). A change to an exported type, a function's signature, a hook, a class member or a
// constant's type fails here with the diff; it is accepted on purpose by writing the reports anew
// (`npm run api:update -w @gatehouse/auth-lib`) and committing them.
import { apiReportTests } from '../../scripts/apiReports.cjs';

apiReportTests('auth-lib', { beforeAll, test });
