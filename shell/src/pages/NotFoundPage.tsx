import { Link, useLocation } from 'react-router-dom';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{pathname}</code>. <Link to="/">Go to Home</Link>.
      </p>
    </>
  );
}
