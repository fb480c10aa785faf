import { Route, Routes } from 'react-router-dom';
import { Layout } from './layout/Layout';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { RemoteRoute } from './routing/RemoteRoute';
import { useShell } from './ShellContext';

/**
 * The shell's routes: Home, one route per registered remote (the remote routes below it), Page not found.
 * Each remote's route is keyed by the remote: the router renders every route element in the same place,
 * so without the key React would carry one remote's slot state (a failure, a retry count) into the next.
 */
export function ShellApp() {
  const { config } = useShell();
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        {config.remotes.map((remote) => (
          <Route key={remote.name} path={`${remote.route}/*`} element={<RemoteRoute key={remote.name} remote={remote} />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
