// The public API pinned by signatures: API Extractor's report of each entry point of package.json's `exports` (the
// hand-written declarations, src/*.d.cts) against the committed one in api/ (scripts/apiReports.cjs). A change to an
// exported type or a function's signature fails here with the diff; it is accepted on purpose by writing the reports
// anew (`npm run api:update -w @gatehouse/config`) and committing them.
import { apiReportTests } from '../../../scripts/apiReports.cjs';

apiReportTests('config', { beforeAll, test });
