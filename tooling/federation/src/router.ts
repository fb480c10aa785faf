/**
 * The router API of a Gatehouse page (decisions/0007). Every app's build resolves `react-router-dom` to
 * this module (an exact alias in `defineApp`) and shares it under that name as a singleton, so a remote
 * still writes `import { Link } from 'react-router-dom'`, the page has one router (one context) and the
 * shared chunk carries only what is listed here: a module shared through federation keeps every one of
 * its exports, because the app that provides it cannot know which ones other apps will import.
 *
 * The list is what a micro-frontend needs: a router for the shell and for a remote running on its own,
 * routes rendered inside the shell's route, links, navigation, the location and its parameters. Data
 * routers (`createBrowserRouter`, loaders, `<Form>`, fetchers) are left out: the shell owns the page's
 * history with a `<BrowserRouter>`, and a remote's routes render inside it.
 *
 * A remote that imports something else fails its build: `export 'useFetcher' (imported as 'useFetcher')
 * was not found in 'react-router-dom'`. To add an export: add it here, deploy the shell, then the remotes
 * that use it (a remote running against an older shell gets that shell's list). Never remove one
 * without a decision record: deployed remotes may use it.
 *
 * It re-exports from `react-router`, the package that implements react-router-dom 7 (whose own entry is
 * `export * from 'react-router'`), so that this file's own import is not itself aliased to this file.
 */
export {
  // Routers: the shell's (and a remote's on its own); MemoryRouter for unit tests and embedded trees
  BrowserRouter,
  MemoryRouter,
  // Route trees
  Routes,
  Route,
  Outlet,
  // Links and navigation
  Link,
  NavLink,
  Navigate,
  useNavigate,
  // The location and what is read from it
  useLocation,
  useParams,
  useSearchParams,
  useMatch,
  useResolvedPath,
  useHref,
  useInRouterContext,
  // Path utilities
  createSearchParams,
  generatePath,
  matchPath,
} from 'react-router';

export type {
  BrowserRouterProps,
  MemoryRouterProps,
  RoutesProps,
  RouteProps,
  PathRouteProps,
  IndexRouteProps,
  LayoutRouteProps,
  OutletProps,
  LinkProps,
  NavLinkProps,
  NavLinkRenderProps,
  NavigateProps,
  NavigateFunction,
  NavigateOptions,
  Location,
  Path,
  To,
  Params,
  PathMatch,
  PathPattern,
  ParamKeyValuePair,
  URLSearchParamsInit,
  SetURLSearchParams,
  RelativeRoutingType,
} from 'react-router';
