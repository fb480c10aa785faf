import { RequireRole } from '@gatehouse/auth-lib';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { failureRate, totals, WEEKLY_SIGN_INS } from './report';
import { ApiCard } from '@gatehouse/remote-kit/ApiCard';

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
  const total = totals(WEEKLY_SIGN_INS);
  return (
    <>
      <h1>Reports</h1>
      <section className="gh-card">
        <h2>Sign-ins this week</h2>
        <div className="gh-table-scroll">
          <table className="gh-table">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Sign-ins</th>
              </tr>
            </thead>
            <tbody>
              {WEEKLY_SIGN_INS.map((row) => (
                <tr key={row.app}>
                  <td>{row.app}</td>
                  <td>{row.signIns}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{total.app}</th>
                <td>{total.signIns}</td>
              </tr>
            </tfoot>
          </table>
        </div>
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
          <div className="gh-table-scroll">
            <table className="gh-table">
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Failures</th>
                  <th scope="col">Failure rate</th>
                </tr>
              </thead>
              <tbody>
                {WEEKLY_SIGN_INS.map((row) => (
                  <tr key={row.app}>
                    <td>{row.app}</td>
                    <td>{row.failures}</td>
                    <td>{failureRate(row)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{total.app}</th>
                  <td>{total.failures}</td>
                  <td>{failureRate(total)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </section>
      </RequireRole>
      <ApiCard />
    </>
  );
}
