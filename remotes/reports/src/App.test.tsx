import { AuthProvider } from '@gatehouse/auth-lib';
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import ReportsApp from './App';
import { failureRate, totals, WEEKLY_SIGN_INS } from './report';

function renderAs(realmRoles: string[]) {
  const session = createTestSession({ user: { username: 'x' }, realmRoles, clientRoles: { reports: ['viewer'] } });
  render(
    <AuthProvider session={session}>
      <MemoryRouter>
        <ReportsApp />
      </MemoryRouter>
    </AuthProvider>,
  );
}

describe('ReportsApp', () => {
  it('shows a viewer the report without the administrators part', () => {
    renderAs(['user']);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports');
    expect(screen.queryByTestId('admin-part')).toBeNull();
    expect(screen.getByTestId('admin-part-hidden')).toBeTruthy();
  });

  it('shows an admin the administrators part too', () => {
    renderAs(['user', 'admin']);
    expect(screen.getByTestId('admin-part').textContent).toContain('Failure rate');
  });

  it('puts the totals of both tables in the same kind of row, and each table in a box that scrolls', () => {
    renderAs(['user', 'admin']);
    const tables = screen.getAllByRole('table');
    expect(tables).toHaveLength(2);
    for (const table of tables) {
      const totalRows = Array.from(table.querySelectorAll('tr')).filter((row) => row.cells[0]?.textContent === 'Total');
      expect(totalRows.map((row) => [row.parentElement?.tagName, row.cells[0]?.tagName, row.cells[0]?.getAttribute('scope')])).toEqual([
        ['TFOOT', 'TH', 'row'],
      ]);
      expect(table.parentElement?.className).toBe('gh-table-scroll');
    }
  });
});

describe('report', () => {
  it('totals the rows and computes failure rates', () => {
    expect(totals(WEEKLY_SIGN_INS)).toEqual({ app: 'Total', signIns: 280, failures: 7 });
    expect(failureRate({ app: 'x', signIns: 99, failures: 1 })).toBe('1.0 %');
    expect(failureRate({ app: 'x', signIns: 0, failures: 0 })).toBe('—');
  });
});
