declare module 'remote/Profile' {
  const Profile: import('react').ComponentType;
  export default Profile;
}
declare module 'react' {
  interface HTMLAttributes<T> { elementtiming?: string }
}
