import { auth } from 'baseline-auth';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the name must match React's declaration to merge with it
  interface HTMLAttributes<T> { elementtiming?: string }
}

export default function Profile() {
  return (
    <main>
      <h1 elementtiming="profile-heading">Profile</h1>
      <p>Signed in as {auth.username}; token of {auth.token?.length ?? 0} characters.</p>
    </main>
  );
}
