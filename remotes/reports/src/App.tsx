import { RequireRole } from '@gatehouse/auth-lib';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { ApiCard } from '@gatehouse/remote-kit/ApiCard';
import { failureRate, totals, WEEKLY_SIGN_INS, type ReportRow } from './report';

/** The reports remote: a small report for viewers, with a part only administrators see. */
export default function ReportsApp() {
  // this remote's own query cache (remotes share none: each team its own), kept while the remote is mounted
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route index element={<ReportPage />} />
        <Route
          path="*"
          element={
            <p>
              Nothing here. <Link to=".">Back to Reports</Link>.
            </p>
          }
        />
      </Routes>
    </QueryClientProvider>
  );
}

function ReportPage() {
  return (
    <>
      <h1>Reports</h1>
      <section className="gh-card">
        <h2>Sign-ins this week</h2>
        <WeekTable columns={[{ header: 'Sign-ins', value: (row) => row.signIns }]} />
      </section>
      <RequireRole
        realm="admin"
        fallback={
          <p className="gh-muted" data-testid="admin-part-hidden">
            Failed sign-ins are visible to administrators.
          </p>
        }
      >
        <section className="gh-card" data-testid="admin-part">
          <h2>Failed sign-ins (administrators)</h2>
          <WeekTable
            columns={[
              { header: 'Failures', value: (row) => row.failures },
              { header: 'Failure rate', value: failureRate },
            ]}
          />
        </section>
      </RequireRole>
      <ApiCard />
    </>
  );
}

/** A column of a table of the week: its header and what it shows for an app's row and for the total. */
interface Column {
  readonly header: string;
  readonly value: (row: ReportRow) => ReactNode;
}

/** The week's sign-ins, one row per app and the total below them: the app, then `columns`. */
function WeekTable({ columns }: { readonly columns: readonly Column[] }) {
  const total = totals(WEEKLY_SIGN_INS);
  const cells = (row: ReportRow) => columns.map((column) => <td key={column.header}>{column.value(row)}</td>);
  return (
    <div className="gh-table-scroll">
      <table className="gh-table">
        <thead>
          <tr>
            <th scope="col">App</th>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKLY_SIGN_INS.map((row) => (
            <tr key={row.app}>
              <td>{row.app}</td>
              {cells(row)}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{total.app}</th>
            {cells(total)}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
