import { Link } from 'react-router-dom';
import { describeRole, type MissingRole } from '../routing/access';

/** Shown instead of a remote the visitor lacks roles for; the remote's code is never requested. */
export function AccessDeniedPage({ title, missing, username }: { title: string; missing: readonly MissingRole[]; username: string }) {
  return (
    <>
      <h1>Access denied</h1>
      <p>
        {title} needs the {missing.map(describeRole).join(' and the ')}, which your account ({username}) does not have.
      </p>
      <p className="gh-muted">
        Ask an administrator for the role, or <Link to="/">go to Home</Link>.
      </p>
    </>
  );
}
