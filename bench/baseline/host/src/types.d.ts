declare module 'remote/Profile' {
  const Profile: import('react').ComponentType;
  export default Profile;
}
declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the name must match React's declaration to merge with it
  interface HTMLAttributes<T> { elementtiming?: string }
}
