import { auth } from 'baseline-auth';

export default function Profile() {
  return (
    <main>
      <h1 elementtiming="profile-heading">Profile</h1>
      <p>
        Signed in as {auth.username}; token of {auth.token?.length ?? 0} characters.
      </p>
    </main>
  );
}
