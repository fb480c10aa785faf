import * as fullRouter from 'react-router-dom';
import * as subset from './router';

/** The runtime exports of the subset: the router API remotes may use (decisions/0007). */
const SUBSET = [
  'BrowserRouter',
  'MemoryRouter',
  'Routes',
  'Route',
  'Outlet',
  'Link',
  'NavLink',
  'Navigate',
  'useNavigate',
  'useLocation',
  'useParams',
  'useSearchParams',
  'useMatch',
  'useResolvedPath',
  'useHref',
  'useInRouterContext',
  'createSearchParams',
  'generatePath',
  'matchPath',
];

describe('the shared router subset', () => {
  it('exports exactly the documented router API (removing a name breaks deployed remotes)', () => {
    expect(Object.keys(subset).sort()).toEqual([...SUBSET].sort());
  });

  it("is react-router-dom's own implementation, not a copy (one router context on the page)", () => {
    for (const name of SUBSET) {
      expect(subset[name as keyof typeof subset]).toBe(fullRouter[name as keyof typeof fullRouter]);
    }
  });
});
